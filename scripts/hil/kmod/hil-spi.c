// SPDX-License-Identifier: GPL-2.0
/*
 * hil-spi: an SPI controller without hardware, for wolftable's
 * hardware-in-the-loop tests: bus 0 with one device at chip select 0 bound
 * to spidev (/dev/spidev0.0, "SPI0.0"), where a Raspberry Pi's WS2812 chain
 * hangs on MOSI. Received bytes are the sent ones (MOSI looped to MISO).
 *
 * Controls, in /sys/class/spi_master/spi0/:
 *   hil_last   (read) the last transfer, as the wire saw it:
 *              "xfer=N speed_hz=S mode=0xM bits=B len=L data=HEX"
 *              (N counts transfers since the reset; at most 1900 bytes of
 *              data are shown, "..." after them if there were more)
 *   hil_reset  (write) forgets the transfers.
 */
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/spi/spi.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#define HIL_MAXLEN (64 * 1024)
#define HIL_SHOWN 1900

static struct platform_device *pdev;
static struct spi_controller *ctlr;
static struct spi_device *sdev;
static DEFINE_MUTEX(hil_lock);
static u8 *last;
static size_t lastlen;
static u32 last_speed, last_mode, last_bits;
static u64 nxfers;

static int hil_transfer_one(struct spi_controller *c, struct spi_device *spi, struct spi_transfer *t)
{
	mutex_lock(&hil_lock);
	lastlen = 0;
	if (t->tx_buf) {
		lastlen = min_t(size_t, t->len, HIL_MAXLEN);
		memcpy(last, t->tx_buf, lastlen);
	}
	last_speed = t->speed_hz;
	last_mode = spi->mode;
	last_bits = t->bits_per_word;
	nxfers++;
	mutex_unlock(&hil_lock);
	if (t->rx_buf) {
		if (t->tx_buf)
			memcpy(t->rx_buf, t->tx_buf, t->len);
		else
			memset(t->rx_buf, 0, t->len);
	}
	return 0; /* done: no spi_finalize_current_transfer needed */
}

static ssize_t hil_last_show(struct device *dev, struct device_attribute *a, char *buf)
{
	ssize_t n;
	size_t i;

	mutex_lock(&hil_lock);
	n = sysfs_emit(buf, "xfer=%llu speed_hz=%u mode=%#x bits=%u len=%zu data=",
		       nxfers, last_speed, last_mode, last_bits, lastlen);
	for (i = 0; i < lastlen && i < HIL_SHOWN; i++)
		n += sysfs_emit_at(buf, n, "%02x", last[i]);
	if (lastlen > HIL_SHOWN)
		n += sysfs_emit_at(buf, n, "...");
	n += sysfs_emit_at(buf, n, "\n");
	mutex_unlock(&hil_lock);
	return n;
}
static DEVICE_ATTR_RO(hil_last);

static ssize_t hil_reset_store(struct device *dev, struct device_attribute *a, const char *buf, size_t len)
{
	mutex_lock(&hil_lock);
	lastlen = 0;
	last_speed = last_mode = last_bits = 0;
	nxfers = 0;
	mutex_unlock(&hil_lock);
	return len;
}
static DEVICE_ATTR_WO(hil_reset);

static struct attribute *hil_attrs[] = {
	&dev_attr_hil_last.attr,
	&dev_attr_hil_reset.attr,
	NULL,
};
static const struct attribute_group hil_group = { .attrs = hil_attrs };

static int __init hil_spi_init(void)
{
	struct spi_board_info bi = {
		.modalias = "dh2228fv", /* a name spidev binds to */
		.max_speed_hz = 10000000,
		.bus_num = 0,
		.chip_select = 0,
		.mode = SPI_MODE_0,
	};
	int ret;

	last = kzalloc(HIL_MAXLEN, GFP_KERNEL);
	if (!last)
		return -ENOMEM;
	pdev = platform_device_register_simple("hil-spi", 0, NULL, 0);
	if (IS_ERR(pdev)) {
		ret = PTR_ERR(pdev);
		goto err_buf;
	}
	ctlr = spi_alloc_master(&pdev->dev, 0);
	if (!ctlr) {
		ret = -ENOMEM;
		goto err_pdev;
	}
	ctlr->bus_num = 0;
	ctlr->num_chipselect = 1;
	ctlr->mode_bits = SPI_CPOL | SPI_CPHA | SPI_CS_HIGH | SPI_LSB_FIRST | SPI_NO_CS;
	ctlr->bits_per_word_mask = SPI_BPW_MASK(8) | SPI_BPW_MASK(16) | SPI_BPW_MASK(32);
	ctlr->max_speed_hz = 32000000;
	ctlr->min_speed_hz = 1000;
	ctlr->transfer_one = hil_transfer_one;
	ret = spi_register_controller(ctlr);
	if (ret) {
		spi_controller_put(ctlr);
		goto err_pdev;
	}
	ret = sysfs_create_group(&ctlr->dev.kobj, &hil_group);
	if (ret)
		goto err_ctlr;
	sdev = spi_new_device(ctlr, &bi);
	if (!sdev) {
		ret = -ENODEV;
		goto err_group;
	}
	return 0;
err_group:
	sysfs_remove_group(&ctlr->dev.kobj, &hil_group);
err_ctlr:
	spi_unregister_controller(ctlr);
err_pdev:
	platform_device_unregister(pdev);
err_buf:
	kfree(last);
	return ret;
}

static void __exit hil_spi_exit(void)
{
	spi_unregister_device(sdev);
	sysfs_remove_group(&ctlr->dev.kobj, &hil_group);
	spi_unregister_controller(ctlr);
	platform_device_unregister(pdev);
	kfree(last);
}

module_init(hil_spi_init);
module_exit(hil_spi_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("an SPI controller that keeps its last transfer, for HIL tests");
