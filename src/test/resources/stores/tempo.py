#!/usr/bin/env python3
"""Writes the Tempo answers of this folder from the project's own recorded OTLP exports.

Run from the repository root: python3 src/test/resources/stores/tempo.py

Tempo answers with protobuf's JSON mapping of its messages: ids (bytes) in base64, enums by name
(SPAN_KIND_CLIENT, STATUS_CODE_ERROR), 64-bit integers as strings, fields at their default value left
out. Each recorded export is one trace; it is written as Tempo would answer for it, and a search
result lists both traces as Tempo's /api/search lists the traces its TraceQL matched.
"""
import base64
import json
import pathlib

RECORDED = pathlib.Path("src/test/resources/real/recorded/otel-js")
OUT = pathlib.Path("src/test/resources/stores")
KINDS = ["SPAN_KIND_UNSPECIFIED", "SPAN_KIND_INTERNAL", "SPAN_KIND_SERVER", "SPAN_KIND_CLIENT",
         "SPAN_KIND_PRODUCER", "SPAN_KIND_CONSUMER"]
CODES = ["STATUS_CODE_UNSET", "STATUS_CODE_OK", "STATUS_CODE_ERROR"]


def b64(hex_id):
    return base64.b64encode(bytes.fromhex(hex_id)).decode()


def value(v):
    """An AnyValue as protobuf's JSON mapping writes it."""
    if "intValue" in v:
        return {"intValue": str(v["intValue"])}
    if "arrayValue" in v:
        return {"arrayValue": {"values": [value(x) for x in v["arrayValue"].get("values", [])]}}
    if "kvlistValue" in v:
        return {"kvlistValue": {"values": attributes(v["kvlistValue"].get("values", []))}}
    return v


def attributes(kvs):
    return [{"key": kv["key"], "value": value(kv["value"])} for kv in kvs]


def nonzero(d):
    return {k: v for k, v in d.items() if v not in (0, "", None, [], {})}


def span(s):
    status = s.get("status", {})
    out = {
        "traceId": b64(s["traceId"]),
        "spanId": b64(s["spanId"]),
        "parentSpanId": b64(s["parentSpanId"]) if s.get("parentSpanId") else "",
        "name": s["name"],
        "kind": KINDS[s.get("kind", 0)],
        "startTimeUnixNano": str(s["startTimeUnixNano"]),
        "endTimeUnixNano": str(s["endTimeUnixNano"]),
        "attributes": attributes(s.get("attributes", [])),
        "droppedAttributesCount": s.get("droppedAttributesCount", 0),
        "events": [nonzero({"timeUnixNano": str(e["timeUnixNano"]), "name": e.get("name", ""),
                            "attributes": attributes(e.get("attributes", []))}) for e in s.get("events", [])],
        "links": [nonzero({"traceId": b64(l["traceId"]), "spanId": b64(l["spanId"]),
                           "attributes": attributes(l.get("attributes", []))}) for l in s.get("links", [])],
        "status": nonzero({"message": status.get("message", ""), "code": CODES[status["code"]] if status.get("code") else ""}),
    }
    out = nonzero(out)
    out["status"] = out.get("status", {})
    return out


def batches(export):
    return [{
        "resource": {"attributes": attributes(rs["resource"].get("attributes", []))},
        "scopeSpans": [{"scope": nonzero(ss.get("scope", {})), "spans": [span(s) for s in ss["spans"]]}
                       for ss in rs["scopeSpans"]],
    } for rs in export["resourceSpans"]]


def root(export):
    for rs in export["resourceSpans"]:
        service = next(a["value"]["stringValue"] for a in rs["resource"]["attributes"] if a["key"] == "service.name")
        for ss in rs["scopeSpans"]:
            for s in ss["spans"]:
                if not s.get("parentSpanId"):
                    return service, s


def write(name, doc):
    (OUT / name).write_text(json.dumps(doc, indent=1) + "\n")


traces = []
inspected = 0
for recorded, answer, form in [("fetch-polling.json", "tempo-trace-fetch-polling.json", "v2"),
                               ("got-honoured-429-parent.json", "tempo-trace-got-honoured-429-parent.json", "v1")]:
    export = json.loads((RECORDED / recorded).read_text())
    inspected += (RECORDED / recorded).stat().st_size
    b = batches(export)
    # /api/v2/traces/{id} answers {"trace": {"resourceSpans": [...]}}; the older /api/traces/{id} answers {"batches": [...]}
    write(answer, {"trace": {"resourceSpans": b}} if form == "v2" else {"batches": b})
    service, s = root(export)
    start, end = int(s["startTimeUnixNano"]), int(s["endTimeUnixNano"])
    traces.append({
        "traceID": s["traceId"].lstrip("0"),
        "rootServiceName": service,
        "rootTraceName": s["name"],
        "startTimeUnixNano": str(start),
        "durationMs": (end - start) // 1_000_000,
        "spanSets": [{"spans": [{"spanID": s["spanId"], "startTimeUnixNano": str(start), "durationNanos": str(end - start),
                                 "attributes": [{"key": "service.name", "value": {"stringValue": service}}]}],
                      "matched": sum(len(ss["spans"]) for rs in export["resourceSpans"] for ss in rs["scopeSpans"])}],
    })
# newest first, as Tempo lists them
traces.sort(key=lambda t: t["startTimeUnixNano"], reverse=True)
write("tempo-search.json", {"traces": traces, "metrics": {"inspectedTraces": 2, "inspectedBytes": str(inspected),
                                                        "completedJobs": 1, "totalJobs": 1}})
