"""Text core shared by Engram and the server: lexicon and BM25 (pure, stdlib only)."""
