"""What ``"export"`` in the global or managed hooks file says (issue 35 item 4): where
the run log's records are shipped. Turned on only by a file, never by the environment
alone (agents set ``OTEL_*`` for their own telemetry); a managed setting wins over the
global one, and ``FORGE_LOG=0`` never stops a managed export.

``{"export": {"syslog": "udp://HOST:PORT" | "tcp://HOST:PORT" | "unix:/PATH"}}``: RFC
5424 syslog (forge_hookd.log.export formats and ships it).

``{"export": {"otlp": true}}`` or ``{"otlp": {"endpoint": URL, "protocol": P, "headers":
{...}}}``: OpenTelemetry over OTLP/HTTP (forge_hookd.log.otlp). What the file leaves
unsaid the standard ``OTEL_EXPORTER_OTLP_*`` variables say when export ships
(:func:`otlp_target`); an endpoint the file names wins over them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

EXPORT_KEYS = ("syslog", "otlp")
OTLP_KEYS = ("endpoint", "protocol", "headers")
PROTOCOLS = ("http/protobuf", "http/json")
DEFAULT_ENDPOINT = "http://localhost:4318"
_NET = re.compile(r"^(?P<scheme>udp|tcp)://(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(?P<port>[0-9]{1,5})$")
_URL = re.compile(r"^https?://[^\s/?#]+(/[^\s]*)?$")


class Otlp:
    """The OTLP setting as the file says it: its endpoint (a base URL, ``/v1/traces``
    and ``/v1/logs`` appended) and protocol, None where the environment is to say them, and headers."""

    __slots__ = ("endpoint", "protocol", "headers")

    def __init__(self, endpoint: str | None = None, protocol: str | None = None,
                 headers: dict[str, str] | None = None) -> None:
        self.endpoint, self.protocol, self.headers = endpoint, protocol, headers or {}

    def to_dict(self) -> dict[str, Any]:
        return {"endpoint": self.endpoint, "protocol": self.protocol, "headers": sorted(self.headers)}


class Export:
    """An export setting, checked: its syslog target (``(scheme, host, port)`` or
    ``("unix", path, 0)``), its OTLP setting, and where it was read."""

    __slots__ = ("syslog", "otlp", "origin", "managed")

    def __init__(self, syslog: tuple[str, str, int] | None, origin: str, managed: bool,
                 otlp: Otlp | None = None) -> None:
        self.syslog, self.origin, self.managed, self.otlp = syslog, origin, managed, otlp

    def to_dict(self) -> dict[str, Any]:
        return {"syslog": list(self.syslog) if self.syslog else None,
                "otlp": self.otlp.to_dict() if self.otlp else None, "origin": self.origin, "managed": self.managed}


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
    syslog = value.get("syslog")
    target = None
    if syslog is not None:
        target = parse_target(syslog) if isinstance(syslog, str) else None
        if target is None:
            warnings.append(f"export: syslog target {syslog!r} is not udp://HOST:PORT, tcp://HOST:PORT or "
                            "unix:/PATH; nothing is exported to syslog")
    otlp = _parse_otlp(value.get("otlp"), warnings)
    if target is None and otlp is None:
        return None, warnings
    return Export(target, origin, managed, otlp), warnings


def _parse_otlp(value: object, warnings: list[str]) -> Otlp | None:
    if value is None or value is False:
        return None
    if value is True:
        return Otlp()
    if not isinstance(value, dict):
        warnings.append("export: 'otlp' must be true or an object such as {\"endpoint\": \"http://HOST:4318\"}; "
                        "nothing is sent over OTLP")
        return None
    warnings += [f"export: otlp: unknown key '{key}' ignored" for key in value if key not in OTLP_KEYS]
    endpoint, protocol, headers = value.get("endpoint"), value.get("protocol"), value.get("headers")
    if endpoint is not None and not (isinstance(endpoint, str) and _URL.match(endpoint)):
        warnings.append(f"export: otlp endpoint {endpoint!r} is not an http:// or https:// URL; "
                        "nothing is sent over OTLP")
        return None
    if protocol is not None and protocol not in PROTOCOLS:
        warnings.append(f"export: otlp protocol {protocol!r} is not one of {', '.join(PROTOCOLS)}; "
                        "nothing is sent over OTLP")
        return None
    if headers is not None and not (isinstance(headers, dict)
                                    and all(isinstance(k, str) and isinstance(v, str) for k, v in headers.items())):
        warnings.append("export: otlp headers must be an object of strings; ignored")
        headers = None
    return Otlp(endpoint, protocol, headers)


def otlp_target(otlp: Otlp, environ: Mapping[str, str], signal: str = "traces") -> tuple[str, str, dict[str, str]]:
    """``(URL, protocol, headers)`` for ``signal`` (``traces`` or ``logs``): what the file
    says, and where it says nothing the standard variables
    (``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`` or ``..._LOGS_ENDPOINT`` is the full URL;
    ``OTEL_EXPORTER_OTLP_ENDPOINT`` a base, ``/v1/traces`` or ``/v1/logs`` appended), else
    the specification's defaults. An endpoint the file names wins over the environment."""
    upper = signal.upper()
    if otlp.endpoint is not None:
        url = _signal_url(otlp.endpoint, signal)
    elif environ.get(f"OTEL_EXPORTER_OTLP_{upper}_ENDPOINT"):
        url = environ[f"OTEL_EXPORTER_OTLP_{upper}_ENDPOINT"]
    else:
        url = _signal_url(environ.get("OTEL_EXPORTER_OTLP_ENDPOINT") or DEFAULT_ENDPOINT, signal)
    protocol = (otlp.protocol or environ.get(f"OTEL_EXPORTER_OTLP_{upper}_PROTOCOL")
                or environ.get("OTEL_EXPORTER_OTLP_PROTOCOL") or "http/protobuf")
    headers = {} if otlp.endpoint is not None else _headers(environ.get("OTEL_EXPORTER_OTLP_HEADERS", ""))
    headers.update(otlp.headers)
    return url, protocol, headers


def _signal_url(base: str, signal: str) -> str:
    return base.rstrip("/") + "/v1/" + signal


def _headers(text: str) -> dict[str, str]:
    """``key1=value1,key2=value2``, values URL-encoded (the W3C baggage format)."""
    from urllib.parse import unquote

    out = {}
    for item in text.split(","):
        key, sep, value = item.partition("=")
        if sep and key.strip():
            out[key.strip()] = unquote(value.strip())
    return out
