#!/bin/sh
# wolftable postinst: create the system user, give it the device groups,
# reload systemd. It never enables or starts the service; on an upgrade it
# restarts it only if it was already running.
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

# The console's state directory and its HTTPS certificate (self-signed, made
# once, kept across upgrades); the fingerprint printed here is the one phones
# compare. The judge's PIN is not made here (apt logs this output): the first
# start draws one, `sudo wolftable console pin` makes a new one.
[ -d /var/lib/wolftable ] || install -d -o wolftable -g wolftable -m 0750 /var/lib/wolftable
install -d -o wolftable -g wolftable -m 0700 /var/lib/wolftable/console
/usr/bin/wolftable console cert --config /etc/wolftable/config.toml || true

if [ -d /run/systemd/system ]; then
  systemctl daemon-reload || true
  # Upgrade of a running daemon: pick up the new binary. Not started otherwise.
  if [ -n "$2" ]; then
    systemctl try-restart wolftable.service || true
  fi
fi
exit 0
