#!/bin/sh
# wolftable postrm: forget the unit. The game journals in /var/lib/wolftable
# and the wolftable user are kept, even on purge: they are tournament records.
set -e
case "$1" in
  remove|purge)
    if [ "$1" = purge ]; then
      # Links left by `systemctl enable wolftable`.
      rm -f /etc/systemd/system/multi-user.target.wants/wolftable.service
    fi
    if [ -d /run/systemd/system ]; then
      systemctl daemon-reload || true
    fi
    ;;
esac
exit 0
