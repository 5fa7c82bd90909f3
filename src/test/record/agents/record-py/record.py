"""Records one LangGraph scenario through LangSmith's OpenTelemetry export.

    python record.py SCENARIO BASE_URL EXPORT_FILE

BASE_URL is the fixture's root (http://127.0.0.1:PORT); the scenario's fixture options are set with
POST /_config/<run name> before the graph runs, and every request of the run goes under
/s/<run name>/. The run name is RECORD_RUN_PREFIX (default langgraph-), SCENARIO and
RECORD_RUN_SUFFIX (a suffix lets a rerun on the same fixture start at fresh counters). With
RECORD_HTTPX=1 the httpx sends get client spans too (opentelemetry-instrumentation-httpx). EXPORT_FILE receives the OpenTelemetry SDK's OTLP JSON (one
ExportTraceServiceRequest per line, written by opentelemetry-exporter-otlp-json-file at shutdown).

LangSmith writes the spans: LANGSMITH_TRACING=true with LANGSMITH_OTEL_ENABLED=true and
LANGSMITH_OTEL_ONLY=true (set by record.sh) make its client turn every LangChain/LangGraph run into
an OpenTelemetry span of the globally registered tracer provider, and send nothing to LangSmith.
"""

import json
import os
import sys
import urllib.request

import httpx

import otel_file

SCENARIO, BASE, EXPORT = sys.argv[1], sys.argv[2].rstrip("/"), sys.argv[3]
RUN = os.environ.get("RECORD_RUN_PREFIX", "langgraph-") + SCENARIO + os.environ.get("RECORD_RUN_SUFFIX", "")

# The tracer provider must be registered before langsmith's client is made: it then uses this one
# instead of building its own OTLP/HTTP exporter to LangSmith. One export at shutdown.
provider = otel_file.install("record-langgraph-py", EXPORT)
if os.environ.get("RECORD_HTTPX") == "1":
    # HTTP client spans of every httpx send (the tools' and the openai SDK's), with the headers
    # named in OTEL_INSTRUMENTATION_HTTP_CAPTURE_HEADERS_CLIENT_{REQUEST,RESPONSE} (set by record.sh).
    from opentelemetry.instrumentation.httpx import HTTPXClientInstrumentor

    HTTPXClientInstrumentor().instrument()

from langchain_core.messages import HumanMessage  # noqa: E402
from langchain_core.tools import tool  # noqa: E402
from langchain_openai import ChatOpenAI  # noqa: E402
from langgraph.graph import START, MessagesState, StateGraph  # noqa: E402
from langgraph.prebuilt import ToolNode, tools_condition  # noqa: E402
from langgraph.types import RetryPolicy  # noqa: E402

PAY = f"{BASE}/s/{RUN}/pay"
CHARGE = {"cart": "c-1", "amount": 1200}

# What the fixture does in each scenario (its options, see fixture.mjs), which tool the scripted
# model calls, and how the graph handles a failed tool.
SCENARIOS = {
    # The tools node fails with httpx.ReadTimeout; the node's RetryPolicy runs it again.
    "node-retry-timeout-keyless": {
        "fixture": {"tool": "charge_cart", "args": CHARGE, "pay": "hold", "hold": 3000},
        "errors": "raise", "retry": True, "key": None,
    },
    # The tools node fails with httpx.HTTPStatusError 503 (Retry-After: 2); the node's RetryPolicy
    # (default_retry_on retries 5xx) runs it again after its own backoff, not after Retry-After.
    "node-retry-503": {
        "fixture": {"tool": "charge_cart", "args": CHARGE, "pay": "503", "ra": "2"},
        "errors": "raise", "retry": True, "key": None,
    },
    # The ToolNode turns the ReadTimeout into a tool message; the model calls charge_cart again.
    "recall-timeout-keyless": {
        "fixture": {"tool": "charge_cart", "args": CHARGE, "pay": "hold", "hold": 3000},
        "errors": "message", "retry": False, "key": None,
    },
    # As above, the tool sends an Idempotency-Key made from its arguments (the fixture does not dedupe).
    "recall-timeout-keyed": {
        "fixture": {"tool": "charge_cart", "args": CHARGE, "pay": "hold", "hold": 3000},
        "errors": "message", "retry": False, "key": "derived",
    },
    # The model passes the key as a tool argument, so that it is in the tool's recorded input.
    "recall-timeout-key-argument": {
        "fixture": {"tool": "charge_cart", "args": {**CHARGE, "idempotency_key": "charge-c-1-0001"},
                    "pay": "hold", "hold": 3000},
        "errors": "message", "retry": False, "key": "argument",
    },
    # The ToolNode turns a 503 (Retry-After: 2) into a tool message; the model re-calls at once.
    "recall-503": {
        "fixture": {"tool": "charge_cart", "args": CHARGE, "pay": "503", "ra": "2"},
        "errors": "message", "retry": False, "key": None,
    },
    # A read tool whose GET times out; the model calls it again.
    "read-recall-timeout": {
        "fixture": {"tool": "get_cart", "args": {"cart": "c-1"}, "cart": "hold", "carthold": 3000},
        "errors": "message", "retry": False, "key": None,
    },
    # The first model request gets 429 with Retry-After: 1; the openai SDK (max_retries 2) re-sends
    # it inside ChatOpenAI's one call.
    "model-429-sdk-retry": {
        "fixture": {"tool": "charge_cart", "args": CHARGE, "model": "429", "modelra": "1"},
        "errors": "message", "retry": False, "key": None, "max_retries": 2,
    },
    # The first model request gets 429 with Retry-After: 5; LangChain's Runnable.with_retry()
    # (tenacity, exponential wait with jitter, no Retry-After) runs ChatOpenAI (max_retries 0) again.
    "model-429-with-retry": {
        "fixture": {"tool": "charge_cart", "args": CHARGE, "model": "429", "modelra": "5"},
        "errors": "message", "retry": False, "key": None, "with_retry": True,
    },
    # A clean run: the charge commits at once.
    "clean": {
        "fixture": {"tool": "charge_cart", "args": CHARGE},
        "errors": "message", "retry": False, "key": None,
    },
}
CASE = SCENARIOS[SCENARIO]


def post_charge(cart: str, amount: int, key: str | None) -> str:
    headers = {"idempotency-key": key} if key else {}
    with httpx.Client(timeout=1.0) as client:
        response = client.post(f"{PAY}/charge", json={"cart": cart, "amount": amount}, headers=headers)
        response.raise_for_status()
        return response.text


if CASE["key"] == "argument":
    @tool
    def charge_cart(cart: str, amount: int, idempotency_key: str) -> str:
        """Charge the cart's amount (in cents) to the customer's card, once per idempotency key."""
        return post_charge(cart, amount, idempotency_key)
elif CASE["key"] == "derived":
    @tool
    def charge_cart(cart: str, amount: int) -> str:
        """Charge the cart's amount (in cents) to the customer's card."""
        return post_charge(cart, amount, f"charge-{cart}-{amount}")
else:
    @tool
    def charge_cart(cart: str, amount: int) -> str:
        """Charge the cart's amount (in cents) to the customer's card."""
        return post_charge(cart, amount, None)


@tool
def get_cart(cart: str) -> str:
    """Read a cart: its items and amount."""
    with httpx.Client(timeout=1.0) as client:
        response = client.get(f"{PAY}/cart/{cart}")
        response.raise_for_status()
        return response.text


def main() -> None:
    # urllib, so that the fixture's configuration is no span of the export.
    config = urllib.request.Request(
        f"{BASE}/_config/{RUN}", data=json.dumps(CASE["fixture"]).encode(), method="POST",
        headers={"content-type": "application/json"},
    )
    urllib.request.urlopen(config, timeout=5.0).close()
    tools = [charge_cart, get_cart]
    model = ChatOpenAI(
        model="gpt-4o-mini", base_url=f"{BASE}/s/{RUN}/v1", api_key="sk-record",
        max_retries=CASE.get("max_retries", 0), timeout=10,
    ).bind_tools(tools)
    if CASE.get("with_retry"):
        model = model.with_retry(stop_after_attempt=3)

    def agent(state: MessagesState) -> dict:
        return {"messages": [model.invoke(state["messages"])]}

    tool_node = ToolNode(tools, handle_tool_errors=CASE["errors"] == "message")
    graph = StateGraph(MessagesState)
    graph.add_node("agent", agent)
    if CASE["retry"]:
        graph.add_node("tools", tool_node, retry_policy=RetryPolicy())
    else:
        graph.add_node("tools", tool_node)
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", tools_condition)
    graph.add_edge("tools", "agent")
    app = graph.compile()
    try:
        result = app.invoke(
            {"messages": [HumanMessage("Please charge cart c-1 (1200 cents).")]},
            {"run_name": "checkout", "recursion_limit": 12},
        )
        print(json.dumps([m.content if isinstance(m.content, str) else str(m.content)
                          for m in result["messages"]]))
    finally:
        from langchain_core.tracers.langchain import wait_for_all_tracers

        wait_for_all_tracers()
        provider.shutdown()


if __name__ == "__main__":
    main()
