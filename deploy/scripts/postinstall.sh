#!/bin/sh
# wolftable postinst: create the system user, give it the device groups,
# make the table's signing key, reload systemd. It never enables or starts
# the service; on an upgrade it restarts it only if it was already running.
set -e

case "$1" in
  configure|abort-upgrade|abort-remove|abort-deconfigure|"") ;;
  *) exit 0 ;;
esac

# Device groups: gpio, spi and i2c exist on Raspberry Pi OS (its udev rules
# give them /dev/gpiochip*, /dev/spidev*, /dev/i2c-*); dialout and audio exist
# on every Debian. The unit names them all in SupplementaryGroups=, and systemd
# refuses to start a unit whose group does not exist, so missing ones are
# created as empty system groups.
for g in gpio spi i2c dialout audio; do
  if ! getent group "$g" >/dev/null; then
    addgroup --quiet --system "$g"
  fi
done

if ! getent passwd wolftable >/dev/null; then
  adduser --quiet --system --group --no-create-home \
    --home /var/lib/wolftable --shell /usr/sbin/nologin \
    --gecos "wolftable table daemon" wolftable
fi
for g in gpio spi i2c dialout audio; do
  if getent group "$g" >/dev/null; then
    adduser --quiet wolftable "$g" >/dev/null
  fi
done

# The state directory (systemd's StateDirectory= makes it too, at the first
# start) and the table's signing key: every game's end record is signed
# with it, so a result cannot be rewritten without it. Made once, never
# replaced (an upgrade keeps it); private key mode 0600, owned by wolftable.
install -d -o wolftable -g wolftable -m 0750 /var/lib/wolftable /var/lib/wolftable/journals
if [ ! -e /var/lib/wolftable/table.key ]; then
  /usr/bin/wolftable record keygen --key /var/lib/wolftable/table.key >/dev/null
  chown wolftable:wolftable /var/lib/wolftable/table.key /var/lib/wolftable/table.pub
  chmod 0600 /var/lib/wolftable/table.key
  chmod 0644 /var/lib/wolftable/table.pub
  echo "wolftable: made this table's signing key; register its public key with the organiser:"
  cat /var/lib/wolftable/table.pub
fi

# The console's state directory and its HTTPS certificate (self-signed, made
# once, kept across upgrades); the fingerprint printed here is the one phones
# compare. The judge's PIN is not made here (apt logs this output): the first
# start draws one, `sudo wolftable console pin` makes a new one.
install -d -o wolftable -g wolftable -m 0700 /var/lib/wolftable/console
# The console's voice studio: the venue's recordings and the pack it activated.
install -d -o wolftable -g wolftable -m 0750 /var/lib/wolftable/voice
/usr/bin/wolftable console cert --config /etc/wolftable/config.toml || true

if [ -d /run/systemd/system ]; then
  systemctl daemon-reload || true
  # Upgrade of a running daemon: pick up the new binary. Not started otherwise.
  if [ -n "$2" ]; then
    systemctl try-restart wolftable.service || true
  fi
fi
exit 0
