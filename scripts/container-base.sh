#!/bin/sh
# Makes the base image of the Containerfile from Debian's archive alone, for a machine that can
# reach deb.debian.org but no container registry: a minimal Debian root made by debootstrap,
# imported into podman (or docker) under the name the Containerfile's BASE argument defaults to.
#
#   sudo scripts/container-base.sh [image-name] [suite] [mirror]   (default: localhost/debian-slim:trixie)
#
# Needs root (debootstrap), debootstrap and podman (CONTAINER_TOOL=docker for docker).
set -eu
image="${1:-localhost/debian-slim:trixie}"
suite="${2:-trixie}"
mirror="${3:-http://deb.debian.org/debian}"
tool="${CONTAINER_TOOL:-podman}"
root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
# minbase: essential packages and apt only. ca-certificates for TLS to Redis or a proxy.
debootstrap --variant=minbase --include=ca-certificates "$suite" "$root" "$mirror"
# What an image needs no copy of: apt's lists and caches, the documentation, the logs.
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/* "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/var/log/*
tar -C "$root" -c . | "$tool" import --change 'CMD ["/bin/bash"]' - "$image"
echo "base image: $image"
