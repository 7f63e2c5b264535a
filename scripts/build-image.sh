#!/usr/bin/env bash
# Builds Holdfast's image: the shaded jar (Maven), then the Dockerfile at the repository root.
#   REGISTRY  prefix of the image name, e.g. registry.example.com/team (default: none, a local image)
#   TAG       image tag (default: the root POM's version, the tag deploy/kustomization.yaml names)
#   DOCKER    the image builder's command (default: docker; podman and nerdctl take the same arguments)
# Then push it and set the same name in deploy/kustomization.yaml (images: newName/newTag).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version="$(sed -n 's|^  <version>\(.*\)</version>$|\1|p' "$root/pom.xml" | head -1)"
image="${REGISTRY:+$REGISTRY/}holdfast:${TAG:-$version}"

mvn -B -q -f "$root/pom.xml" -pl server -am package -DskipTests
"${DOCKER:-docker}" build -t "$image" "$root"
echo "built $image"
