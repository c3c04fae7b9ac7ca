"""How a quarantined candidate's reason reads in ``conflict_sets.reason`` (pure).

The reason is what a person resolving the set sees: the threat or the
risky effects in words, and how the instruction can still be confirmed.
"""

from __future__ import annotations

# How a quarantine reason reads in ``conflict_sets.reason``.
THREAT_LABELS = {
    "exfiltration": "data exfiltration (send secrets or the conversation to an address)",
    "safety_override": "safety override (discard the rules or reveal the system prompt)",
    "jailbreak": "role-play jailbreak (a new identity without the rules)",
}
# How a risky instruction's effects read (``text.risk``).
RISK_LABELS = {
    "address": "points at an address outside the conversation (a link, a host, an e-mail, a webhook)",
    "code": "runs or fetches code",
    "disclosure": "gives out secrets or personal data",
    "safeguard": "lowers a safeguard",
}


def threat_reason(threat: str) -> str:
    """``conflict_sets.reason`` for a quarantined candidate."""
    if threat.startswith("risky_instruction:"):
        said = ", ".join(RISK_LABELS[e] for e in threat.split(":", 1)[1].split(","))
        return (
            f"{threat}: obeying it {said}; it becomes an instruction only once someone "
            "confirms it (resolve this set keeping it, or POST /v1/facts)"
        )
    if threat == "unconfirmed_instruction":
        return (
            f"{threat}: read from its frame alone (any verb) and obeying it acts beyond the "
            "reply (sends, runs, links, names a secret); it becomes an instruction only once someone confirms it "
            "(resolve this set keeping it, or POST /v1/facts)"
        )
    return f"{threat}: the turn matches a {THREAT_LABELS[threat]} pattern"
