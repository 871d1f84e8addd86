#!/usr/bin/env bash
# Vendors Swagger UI (the renderer behind GET /docs) into static/vendor/swagger-ui:
# the npm package swagger-ui-dist at the pinned version below, Apache-2.0.
# Only the standalone bundle, its stylesheet and the licence files are kept;
# the service embeds them, so /docs needs no network at run time.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=5.35.0
DEST=static/vendor/swagger-ui
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

(cd "$WORK" && npm pack --silent "swagger-ui-dist@$VERSION" >/dev/null && tar xzf "swagger-ui-dist-$VERSION.tgz")
mkdir -p "$DEST"
for f in swagger-ui-bundle.js swagger-ui.css LICENSE NOTICE swagger-ui-bundle.js.LICENSE.txt; do
  cp "$WORK/package/$f" "$DEST/$f"
done
# The bundle names a source map that is not vendored; drop the reference so
# browsers do not ask for it.
sed -i '/^\/\/# sourceMappingURL=/d' "$DEST/swagger-ui-bundle.js"
sed -i '/^\/\*# sourceMappingURL=/d' "$DEST/swagger-ui.css"
echo "swagger-ui-dist $VERSION" > "$DEST/VERSION"
echo "vendored swagger-ui-dist $VERSION into $DEST"
