"""What an operator watches: Prometheus series (``metrics``) and OpenTelemetry spans (``tracing``).

A foundation layer: domain, storage and API code record into it, and it
imports nothing of theirs.
"""
