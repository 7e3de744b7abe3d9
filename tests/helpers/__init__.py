"""Helpers shared by the tests: repos made by hand, dreams, MCP clients, app pilots."""
