"""The rule model: loading and validating MobiFlow-format rules (task specs) from YAML or JSON.

``loader`` reads and validates a rule; ``condition``, ``params`` and ``graph`` check its conditions,
checker parameters and DAG; ``yaml_text`` parses YAML/JSON keeping the line of every key.
"""

from droidpilot.verify.spec.loader import (
    PERCEPTION_TYPES,
    RuleError,
    RuleProblem,
    load_rule,
    load_rule_text,
    validate_task,
)

__all__ = ["PERCEPTION_TYPES", "RuleError", "RuleProblem", "load_rule", "load_rule_text", "validate_task"]
