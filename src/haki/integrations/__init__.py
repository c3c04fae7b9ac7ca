"""Adapters for agent frameworks, each behind an optional extra.

- ``haki.integrations.langgraph`` (``pip install "haki-memory[langgraph]"``):
  ``HakiStore``, a LangGraph ``BaseStore``, and the ``recall_node`` /
  ``remember_node`` graph nodes;
- ``haki.integrations.openai_agents`` (``pip install "haki-memory[openai-agents]"``):
  ``HakiSession``, an OpenAI Agents SDK ``Session``, and the memory tool and
  instructions that inject the ``<haki_memory>`` block.

Like ``haki.client`` they stand apart from the server: they import the SDK
and their framework, nothing else of haki. This package imports no
framework itself; each module needs its own.
"""
