"""Python client of the AutoForge environment server (``autoforge serve``).

The core is standard library only: :class:`AutoForgeClient` (HTTP, retries on 429 and refused
connections), :class:`AutoForgeEnv` (OpenEnv-style ``reset``/``step``) and
:class:`OpenEnvWebSocket` (OpenEnv's ``/ws``). Optional parts:
``autoforge_client.erpo`` (torch), ``autoforge_client.verl`` (a verl agent loop) and
``autoforge_client.trl`` (a TRL ``environment_factory``).
"""

from .client import AutoForgeClient, AutoForgeError
from .env import AutoForgeEnv, StepResult
from .uid import make_uid, parse_uid
from .ws import OpenEnvWebSocket

__all__ = ["AutoForgeClient", "AutoForgeError", "AutoForgeEnv", "StepResult", "OpenEnvWebSocket", "make_uid", "parse_uid"]
__version__ = "0.1.0"
