#!/usr/bin/env bash
# Installs the Python package (python/) for Debian's /usr/bin/python3 from the extension
# scripts/build.sh built; no network (--no-index), no build isolation. See docs/python.md.
set -euo pipefail
cd "$(dirname "$0")/.."
# Debian marks its interpreter externally managed (PEP 668); the package goes to
# /usr/local/lib/python3*/dist-packages, beside Debian's own, not over them.
/usr/bin/python3 -m pip install --quiet --root-user-action=ignore --no-build-isolation --no-index --no-deps --break-system-packages ./python
/usr/bin/python3 -c "import twinrt; print('twinrt', twinrt.__version__, 'installed for', __import__('sys').executable)"
