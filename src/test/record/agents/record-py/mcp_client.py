"""An MCP client (the mcp package's Client over Streamable HTTP) that calls charge_cart with a 1 s
read timeout and, when the call times out, calls the tool again with the same arguments, as an
agent re-calling a tool does. The client's own OpenTelemetry spans (MCP send ...) are the export.

    python mcp_client.py MCP_URL EXPORT_FILE
"""

import asyncio
import sys

import otel_file

URL, EXPORT = sys.argv[1], sys.argv[2]
provider = otel_file.install("record-mcp-client-py", EXPORT)

from mcp import Client  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402
from opentelemetry import trace  # noqa: E402

ARGS = {"cart": "c-1", "amount": 1200}


async def main() -> None:
    tracer = trace.get_tracer("record-mcp-client")
    with tracer.start_as_current_span("checkout"):
        async with Client(URL, read_timeout_seconds=1.0) as client:
            for attempt in (1, 2):
                try:
                    result = await client.call_tool("charge_cart", ARGS)
                    print(f"call {attempt}: {result.content}")
                    break
                except MCPError as error:
                    print(f"call {attempt}: {error}")


try:
    asyncio.run(main())
finally:
    provider.shutdown()
