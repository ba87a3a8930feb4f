"""What ``"export"`` in the global or managed hooks file says (issue 35 item 4): where
the run log's records are shipped. Turned on only by a file, never by the environment
alone (agents set ``OTEL_*`` for their own telemetry); a managed setting wins over the
global one, and ``FORGE_LOG=0`` never stops a managed export.

``{"export": {"syslog": "udp://HOST:PORT" | "tcp://HOST:PORT" | "unix:/PATH"}}``: RFC
5424 syslog (forge_hookd.log.export formats and ships it). ``otlp`` is not supported by
this version: a warning says so, nothing is exported for it.
"""

from __future__ import annotations

import re
from typing import Any

EXPORT_KEYS = ("syslog", "otlp")
_NET = re.compile(r"^(?P<scheme>udp|tcp)://(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(?P<port>[0-9]{1,5})$")


class Export:
    """An export setting, checked: its syslog target (``(scheme, host, port)`` or
    ``("unix", path, 0)``), and where it was read."""

    __slots__ = ("syslog", "origin", "managed")

    def __init__(self, syslog: tuple[str, str, int] | None, origin: str, managed: bool) -> None:
        self.syslog, self.origin, self.managed = syslog, origin, managed

    def to_dict(self) -> dict[str, Any]:
        return {"syslog": list(self.syslog) if self.syslog else None, "origin": self.origin, "managed": self.managed}


def parse_target(text: str) -> tuple[str, str, int] | None:
    """``udp://HOST:PORT``, ``tcp://HOST:PORT`` or ``unix:/PATH``; None otherwise."""
    if text.startswith("unix:/") and len(text) > 6:
        return ("unix", text[5:], 0)
    match = _NET.match(text)
    if match is None or not 0 < int(match["port"]) < 65536:
        return None
    return (match["scheme"], match["host"].strip("[]"), int(match["port"]))


def parse_export(value: object, *, origin: str, managed: bool) -> tuple[Export | None, list[str]]:
    """The setting and the warnings it earns (an unknown key, a target not understood)."""
    if not isinstance(value, dict):
        return None, ["'export' must be an object such as {\"syslog\": \"udp://127.0.0.1:514\"}; nothing is exported"]
    warnings = [f"export: unknown key '{key}' ignored" for key in value if key not in EXPORT_KEYS]
    if "otlp" in value:
        warnings.append("export: 'otlp' is not supported by this version of forge: nothing is sent over OTLP")
    syslog = value.get("syslog")
    target = None
    if syslog is not None:
        target = parse_target(syslog) if isinstance(syslog, str) else None
        if target is None:
            warnings.append(f"export: syslog target {syslog!r} is not udp://HOST:PORT, tcp://HOST:PORT or "
                            "unix:/PATH; nothing is exported to syslog")
    return (Export(target, origin, managed) if target else None), warnings
