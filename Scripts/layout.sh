# shellcheck shell=bash
# Where fbanim's files go, shared by Scripts/install.sh and
# Scripts/build-deb.sh (sourced, not run). One list, so the Debian package
# and a hand install hold the same files.
#
# Set before calling fbanim_stage ROOT (ROOT is DESTDIR or the package
# tree; every directory below is absolute and lands under ROOT):
#   REPO           the repository's top directory
#   FBANIM_BIN_SRC the fbanim executable to install
#   BINDIR         where fbanim goes                      (/usr/bin)
#   SHAREDIR       boards, next to the binary's ../share  (/usr/share/fbanim)
#   DOCDIR         documentation                          (/usr/share/doc/fbanim)
#   UDEVRULESDIR   udev rules                             (/lib/udev/rules.d)
#   UNITDIR        systemd system units                   (/lib/systemd/system)
#   INITRAMFSDIR   initramfs-tools hooks and scripts, or empty to leave
#                  them out                               (/usr/share/initramfs-tools)
#   CONFDIR        the configuration directory fbanim reads (/etc/fbanim;
#                  fixed by the runtime)

# The files of systemd/ (units and the path unit), by name.
fbanim_units() {
    local f
    for f in "$REPO"/systemd/*.service "$REPO"/systemd/*.path; do
        [ -f "$f" ] && echo "${f##*/}"
    done
}

# The units enabled on install: those with an [Install] section.
fbanim_enabled_units() {
    local u
    for u in $(fbanim_units); do
        grep -q '^\[Install\]' "$REPO/systemd/$u" && echo "$u"
    done
}

# Rewrites the packaged paths (/usr/bin/fbanim, /usr/share/fbanim,
# /usr/share/doc/fbanim) to this layout's.
fbanim_paths() {
    sed -e "s|/usr/bin/fbanim|$BINDIR/fbanim|g" \
        -e "s|/usr/share/doc/fbanim|$DOCDIR|g" \
        -e "s|/usr/share/fbanim|$SHAREDIR|g" "$1"
}

# fbanim_stage ROOT: copies everything but the example configuration
# (whose install differs: a conffile in the package, never overwritten by
# install.sh) into ROOT. Prints each file it writes.
fbanim_stage() {
    local root="$1" f u
    umask 022
    install -d "$root$BINDIR" "$root$SHAREDIR/boards" "$root$DOCDIR" \
        "$root$UDEVRULESDIR" "$root$UNITDIR"

    install -m 755 "$FBANIM_BIN_SRC" "$root$BINDIR/fbanim"
    echo "$BINDIR/fbanim"

    for f in "$REPO"/boards/*.conf; do
        install -m 644 "$f" "$root$SHAREDIR/boards/${f##*/}"
        echo "$SHAREDIR/boards/${f##*/}"
    done

    install -m 644 "$REPO/udev/99-fbanim.rules" "$root$UDEVRULESDIR/99-fbanim.rules"
    echo "$UDEVRULESDIR/99-fbanim.rules"

    for u in $(fbanim_units); do
        fbanim_paths "$REPO/systemd/$u" >"$root$UNITDIR/$u"
        chmod 644 "$root$UNITDIR/$u"
        echo "$UNITDIR/$u"
    done

    if [ -n "$INITRAMFSDIR" ]; then
        for f in hooks/fbanim scripts/init-top/fbanim scripts/init-bottom/fbanim scripts/panic/fbanim; do
            install -d "$root$INITRAMFSDIR/${f%/*}"
            # Inside the initramfs fbanim is always /usr/bin/fbanim: only the
            # hook, which runs on the installed system, learns the layout.
            if [ "$f" = hooks/fbanim ]; then
                sed -e "s|^FBANIM_BIN=.*|FBANIM_BIN=$BINDIR/fbanim|" \
                    -e "s|^FBANIM_SHARE=.*|FBANIM_SHARE=$SHAREDIR|" \
                    "$REPO/initramfs-tools/$f" >"$root$INITRAMFSDIR/$f"
            else
                cat "$REPO/initramfs-tools/$f" >"$root$INITRAMFSDIR/$f"
            fi
            chmod 755 "$root$INITRAMFSDIR/$f"
            echo "$INITRAMFSDIR/$f"
        done
    fi

    install -m 644 "$REPO/README.md" "$root$DOCDIR/README.md"
    fbanim_paths "$REPO/docs/boot-splash.md" >"$root$DOCDIR/boot-splash.md"
    chmod 644 "$root$DOCDIR/boot-splash.md"
    install -m 644 "$REPO/boards/README.md" "$root$DOCDIR/boards.md"
    echo "$DOCDIR/README.md"
    echo "$DOCDIR/boot-splash.md"
    echo "$DOCDIR/boards.md"
}

# The example configuration, with this layout's paths.
fbanim_example_conf() {
    fbanim_paths "$REPO/etc/fbanim.conf"
}
