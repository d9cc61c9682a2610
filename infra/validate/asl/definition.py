"""Prints the fan-out state machine's definition from infra/template.yaml as JSON, for asl-validator.

Usage: definition.py TEMPLATE RESOURCE. The template is read with cfn-lint's own YAML loader (it
understands !Ref, !Sub and the other short forms); each ${Name} of the resource's
DefinitionSubstitutions is replaced by a well-formed example ARN of the kind it names, as
CloudFormation would at deploy time, so asl-validator's ARN check applies to the result.
"""

from __future__ import annotations

import json
import re
import sys

from cfnlint.decode import cfn_yaml

EXAMPLE_ARNS = {
    "Fn::GetAtt": "arn:aws:lambda:us-east-1:123456789012:function:delta-compactor-fanout",
}


def main() -> int:
    template_path, resource = sys.argv[1], sys.argv[2]
    template = cfn_yaml.load(template_path)
    properties = template["Resources"][resource]["Properties"]
    substitutions = {
        name: EXAMPLE_ARNS.get(next(iter(value)) if isinstance(value, dict) else "", str(value))
        for name, value in properties.get("DefinitionSubstitutions", {}).items()
    }
    text = json.dumps(properties["Definition"], indent=2)
    missing = set(re.findall(r"\$\{(\w+)\}", text)) - set(substitutions)
    if missing:
        print(f"definition.py: no substitution for {sorted(missing)}", file=sys.stderr)
        return 1
    for name, value in substitutions.items():
        text = text.replace("${" + name + "}", value)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
