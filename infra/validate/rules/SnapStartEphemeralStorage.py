"""delta-compactor's own cfn-lint rule: SnapStart functions keep the default 512 MB of /tmp.

Lambda refuses to publish a SnapStart version of a function with more than 512 MB of ephemeral
storage, but only at deploy time; no AWS tool checks it (cfn-lint 1.53.3, its serverless rules and
the SAM translator all accept it). The rule runs on the template after the SAM transform, so a
size or SnapStart set in Globals is checked too. Loaded by infra/.cfnlintrc.yaml (append_rules);
infra/validate/broken/snapstart-with-10gb-tmp.yaml proves it bites.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from cfnlint.jsonschema import ValidationError, ValidationResult, Validator
from cfnlint.rules.jsonschema.CfnLintKeyword import CfnLintKeyword

SNAPSTART_MAX_EPHEMERAL_STORAGE_MB = 512


class SnapStartEphemeralStorage(CfnLintKeyword):
    """A function with SnapStart on published versions asks for at most 512 MB of /tmp."""

    id = "E9301"
    shortdesc = "SnapStart functions keep ephemeral storage at or below 512 MB"
    description = (
        "Lambda does not publish SnapStart versions of functions with more than "
        f"{SNAPSTART_MAX_EPHEMERAL_STORAGE_MB} MB of ephemeral storage: the deployment fails. "
        "Drop EphemeralStorage (512 MB is the default) or SnapStart."
    )
    source_url = "https://docs.aws.amazon.com/lambda/latest/dg/snapstart.html"
    tags = ["resources", "lambda", "snapstart", "delta-compactor"]

    def __init__(self) -> None:
        super().__init__(["Resources/AWS::Lambda::Function/Properties"])

    def validate(
        self, validator: Validator, _keyword: Any, instance: Any, schema: dict[str, Any]
    ) -> ValidationResult:
        for scenario in validator.cfn.get_object_without_conditions(
            instance, ["SnapStart", "EphemeralStorage"]
        ):
            properties = scenario.get("Object")
            snap_start = properties.get("SnapStart")
            storage = properties.get("EphemeralStorage")
            if not isinstance(snap_start, dict) or not isinstance(storage, dict):
                continue
            if snap_start.get("ApplyOn") != "PublishedVersions":
                continue
            # A Ref to a parameter resolves to its default (and allowed values).
            for size, _validator, errors in validator.resolve_value(storage.get("Size")):
                if errors or not _is_number(size):
                    continue
                if float(size) > SNAPSTART_MAX_EPHEMERAL_STORAGE_MB:
                    yield ValidationError(
                        f"EphemeralStorage.Size {size} MB with SnapStart ApplyOn PublishedVersions: "
                        f"SnapStart allows at most {SNAPSTART_MAX_EPHEMERAL_STORAGE_MB} MB of /tmp "
                        "and the deployment would fail; drop EphemeralStorage or SnapStart",
                        path=deque(["EphemeralStorage", "Size"]),
                        rule=self,
                    )


def _is_number(value: Any) -> bool:
    try:
        float(value)
    except (TypeError, ValueError):
        return False
    return not isinstance(value, bool)
