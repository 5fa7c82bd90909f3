"""GET until 200, waiting what retry-after-ms asks, else Retry-After, as SDKs for LLM APIs do."""
import os
import sys
import time
import urllib.error
import urllib.request

for attempt in range(6):
    try:
        with urllib.request.urlopen(os.environ["RETRY_AUDIT_PROBE_URL"], timeout=5) as response:
            print(response.status)
            sys.exit(0)
    except urllib.error.HTTPError as e:
        ms = e.headers.get("retry-after-ms")
        seconds = e.headers.get("Retry-After")
        wait = int(ms) / 1000 if ms else int(seconds) if seconds else 1
        print(e.code, "waiting", wait)
        time.sleep(wait)
sys.exit(1)
