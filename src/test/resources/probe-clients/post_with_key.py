"""POST one order with a 1 s timeout, up to three times. The idempotency key is sent on every
attempt (`keep`), only on the first (`drop`), or never (`none`)."""
import http.client
import os
import sys
import time
import urllib.parse

mode = sys.argv[1]
url = urllib.parse.urlsplit(os.environ["RETRY_AUDIT_PROBE_URL"])
body = b'{"order": 42}'
for attempt in range(1, 4):
    headers = {"Content-Type": "application/json"}
    if mode == "keep" or (mode == "drop" and attempt == 1):
        headers["Idempotency-Key"] = "order-42"
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=1)
    try:
        connection.request("POST", url.path, body=body, headers=headers)
        response = connection.getresponse()
        print(response.status, response.read().decode().strip())
        if response.status == 200:
            sys.exit(0)
    except OSError as e:
        print("attempt", attempt, "failed:", e)
    finally:
        connection.close()
    time.sleep(0.2)
sys.exit(1)
