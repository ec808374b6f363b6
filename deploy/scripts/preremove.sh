#!/bin/sh
# wolftable prerm: stop the daemon before its files go away. On an upgrade it
# is left running; the new postinst restarts it (try-restart).
set -e
case "$1" in
  remove|deconfigure)
    if [ -d /run/systemd/system ]; then
      systemctl stop wolftable.service || true
    fi
    ;;
esac
exit 0
