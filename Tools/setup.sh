# Shared by Tools/test and Tools/keytrace (sourced, not run): installs the Debian packages that are
# missing and finds the Swift toolchain.

# ensure_packages NAME...: installs those of the Debian packages that are not installed yet
# (through sudo when not root).
ensure_packages() {
    local missing=() package
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "$(basename "$0"): installing ${missing[*]}" >&2
    local sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

# ensure_swift: puts a Swift toolchain on PATH, or explains where to get one.
ensure_swift() {
    command -v swift >/dev/null 2>&1 && return 0
    if [ -x /opt/swift/usr/bin/swift ]; then
        export PATH="/opt/swift/usr/bin:$PATH"
        return 0
    fi
    echo "$(basename "$0"): no Swift toolchain found. Install Swift 6.1 or newer" \
        "(https://www.swift.org/install/linux/) and put its usr/bin on PATH." >&2
    exit 1
}

# What the package needs to build: the Linux input module's C libraries (found through
# pkg-config; libseat for seat access as an ordinary user), the XKB data its keymaps compile
# from, and libX11's compose tables (dead keys).
# The core needs none of them.
build_packages=(pkg-config libevdev-dev libudev-dev libdrm-dev libinput-dev libxkbcommon-dev xkb-data libx11-data libseat-dev libcairo2-dev libfreetype-dev libharfbuzz-dev libfontconfig-dev fonts-dejavu-core libwayland-dev libpango1.0-dev librsvg2-dev)
