"""The seed's module path of the async executor, kept for programs written against it
(``from forge_hookd.executor import HookExecutor``): the executor lives in the run's wing,
:mod:`forge_hookd.run.executor`."""

from forge_hookd.run.executor import HookExecutor, fire_event

__all__ = ["HookExecutor", "fire_event"]
