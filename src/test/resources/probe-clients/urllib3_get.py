"""GET the probe URL with urllib3's Retry: `respect` (the default) or `ignore` Retry-After."""
import os
import sys

import urllib3

respect = sys.argv[1] != "ignore"
retry = urllib3.util.Retry(total=5, status_forcelist=[429, 503], respect_retry_after_header=respect)
response = urllib3.PoolManager(retries=retry).request("GET", os.environ["RETRY_AUDIT_PROBE_URL"])
print(response.status)
