"""The wheel's build hook: the top-level data/, dashboards/ and notebooks/ go into the wheel as
nessus/_share/<folder>/, where `nessus.paths` finds them once installed. Editable installs leave
them out: there `nessus.paths` finds them beside nessus/ in the checkout."""

from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SHARED = ("data", "dashboards", "notebooks")


class ShareHook(BuildHookInterface):
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if version == "standard":
            build_data["force_include"].update({folder: f"nessus/_share/{folder}" for folder in SHARED})
