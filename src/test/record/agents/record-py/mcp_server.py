"""An MCP server (the mcp package's MCPServer over Streamable HTTP) whose charge_cart tool charges
through the fixture; its own OpenTelemetry middleware (on by default) writes the server spans.

    python mcp_server.py PORT PAY_URL EXPORT_FILE

PAY_URL is the fixture's payments root of the scenario (http://127.0.0.1:P/s/RUN/pay). The export
is written when the process is stopped (SIGINT or SIGTERM).
"""

import sys

import httpx

import otel_file

PORT, PAY, EXPORT = int(sys.argv[1]), sys.argv[2].rstrip("/"), sys.argv[3]
provider = otel_file.install("record-mcp-server-py", EXPORT)

from mcp.server import MCPServer  # noqa: E402

server = MCPServer("payments")
# One client for the process: making an httpx client loads the CA bundle, which takes long enough
# here to hold every call past the MCP client's timeout.
payments = httpx.AsyncClient(timeout=10.0)


@server.tool()
async def charge_cart(cart: str, amount: int) -> str:
    """Charge the cart's amount (in cents) to the customer's card."""
    response = await payments.post(f"{PAY}/charge", json={"cart": cart, "amount": amount})
    response.raise_for_status()
    return response.text


try:
    server.run(transport="streamable-http", host="127.0.0.1", port=PORT)
finally:
    provider.shutdown()
