// SPDX-License-Identifier: GPL-2.0
/*
 * hil-i2c: an I2C bus (i2c-0, /dev/i2c-0 through i2c-dev) with MCP23017 port
 * expanders on it, for wolftable's hardware-in-the-loop tests.
 *
 * Each expander is a model of the datasheet's register file (IOCON.BANK = 0):
 * IODIR, IPOL, GPINTEN, DEFVAL, INTCON, IOCON, GPPU, INTF, INTCAP, GPIO, OLAT
 * at 0x00-0x15, reset to their power-on values (IODIR 0xff, the rest 0).
 * A write's first byte sets the address pointer, the others are written from
 * there; a read returns registers from the pointer on. The pointer moves on
 * after each byte (wrapping from 0x15 to 0x00), or toggles between the A and B
 * registers of a pair with IOCON.SEQOP set.
 *
 * The keys are contacts to ground. Reading GPIOA/GPIOB gives, for an input
 * pin, 0 if its contact is closed, 1 if it is open and its pull-up (GPPU) is
 * on, and 0 if it is open and floating (a real floating input reads whatever
 * it picks up; here it reads as a pressed key, so a missing pull-up shows),
 * inverted where IPOL says; an output pin reads its latch. Writing GPIO
 * writes OLAT.
 *
 * Controls, in /sys/bus/i2c/devices/i2c-0/:
 *   hil_keys   (write) lines "ADDR STEP...", STEP = "MASK[:N[:MS]]": the
 *              closed contacts (bit 0 = GPA0 ... bit 15 = GPB7, hex) for the
 *              next N polls, and at least MS milliseconds from the first of
 *              them, a poll being a read that starts at GPIOA or GPIOB; the
 *              last step without :N holds. One write arms its lines at once.
 *   hil_nak    (write) "ADDR 1" makes the expander stop answering (every
 *              transfer to it fails with -EREMOTEIO, as a missing chip does
 *              on the Pi's bcm2835 I2C); "ADDR 0" brings it back.
 *   hil_reset  (write) power-cycles every expander: registers to their
 *              power-on values, contacts open, answering, counters zeroed.
 *   hil_state  (read) one line per expander:
 *              "0x20 iodir=ffff ipol=0000 gppu=0000 iocon=00 olat=0000
 *               closed=0000 nak=0 polls=0 step=0/0"
 */
#include <linux/module.h>
#include <linux/i2c.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/ktime.h>

#define HIL_MAXCHIPS 8
#define HIL_NREGS 0x16
#define HIL_MAXSTEPS 64

#define REG_IODIRA 0x00
#define REG_IPOLA 0x02
#define REG_IOCONA 0x0a
#define REG_IOCONB 0x0b
#define REG_GPPUA 0x0c
#define REG_INTFA 0x0e
#define REG_INTCAPA 0x10
#define REG_GPIOA 0x12
#define REG_GPIOB 0x13
#define REG_OLATA 0x14
#define IOCON_SEQOP 0x20

static unsigned short mcp[HIL_MAXCHIPS];
static int nmcp;
module_param_array(mcp, ushort, &nmcp, 0444);
MODULE_PARM_DESC(mcp, "the expanders' addresses (0x20-0x27)");

struct hil_step {
	u16 closed;
	u32 polls; /* 0: holds */
	u32 min_ms;
};

struct hil_chip {
	u16 addr;
	u8 regs[HIL_NREGS];
	u8 ptr;
	bool nak;
	u16 closed;
	u64 polls;
	struct hil_step steps[HIL_MAXSTEPS];
	int nsteps, cur;
	u32 used;      /* polls of steps[cur] so far */
	ktime_t start; /* the first of them */
};

static struct hil_chip chips[HIL_MAXCHIPS];
static DEFINE_MUTEX(hil_lock);
static struct i2c_adapter hil_adapter;

static void chip_reset(struct hil_chip *c)
{
	u16 addr = c->addr;

	memset(c, 0, sizeof(*c));
	c->addr = addr;
	c->regs[REG_IODIRA] = 0xff;
	c->regs[REG_IODIRA + 1] = 0xff;
}

static struct hil_chip *chip_at(u16 addr)
{
	int i;

	for (i = 0; i < nmcp; i++)
		if (chips[i].addr == addr)
			return &chips[i];
	return NULL;
}

static u16 reg16(struct hil_chip *c, int reg)
{
	return c->regs[reg] | c->regs[reg + 1] << 8;
}

/*
 * The contacts at this poll: the current step's, until it has had its polls
 * and its time; then the next one's. A step without a count holds, and ends
 * the script.
 */
static void chip_poll(struct hil_chip *c)
{
	ktime_t now = ktime_get();

	c->polls++;
	while (c->cur < c->nsteps) {
		struct hil_step *st = &c->steps[c->cur];

		if (!c->used)
			c->start = now;
		c->closed = st->closed;
		if (!st->polls) {
			c->cur = c->nsteps;
			return;
		}
		if (c->used < st->polls || ktime_ms_delta(now, c->start) < st->min_ms) {
			c->used++;
			return;
		}
		c->cur++;
		c->used = 0;
	}
}

/* the pins' levels as GPIOA/GPIOB read them */
static u16 chip_pins(struct hil_chip *c)
{
	u16 in = reg16(c, REG_IODIRA), pu = reg16(c, REG_GPPUA);
	u16 open = ~c->closed;
	u16 level = open & pu; /* closed: 0; open: the pull-up or floating low */

	level ^= reg16(c, REG_IPOLA);
	return (level & in) | (reg16(c, REG_OLATA) & ~in);
}

static u8 chip_read(struct hil_chip *c, u8 reg)
{
	switch (reg) {
	case REG_GPIOA:
		return chip_pins(c) & 0xff;
	case REG_GPIOB:
		return chip_pins(c) >> 8;
	}
	return c->regs[reg];
}

static void chip_write(struct hil_chip *c, u8 reg, u8 v)
{
	switch (reg) {
	case REG_IOCONA:
	case REG_IOCONB:
		c->regs[REG_IOCONA] = c->regs[REG_IOCONB] = v;
		return;
	case REG_INTFA:
	case REG_INTFA + 1:
	case REG_INTCAPA:
	case REG_INTCAPA + 1:
		return; /* read-only */
	case REG_GPIOA:
	case REG_GPIOB:
		reg += REG_OLATA - REG_GPIOA;
		break;
	}
	c->regs[reg] = v;
}

static void chip_next(struct hil_chip *c)
{
	if (c->regs[REG_IOCONA] & IOCON_SEQOP)
		c->ptr ^= 1;
	else
		c->ptr = (c->ptr + 1) % HIL_NREGS;
}

static int hil_xfer(struct i2c_adapter *adap, struct i2c_msg *msgs, int num)
{
	int m, i, ret = num;

	mutex_lock(&hil_lock);
	for (m = 0; m < num; m++) {
		struct i2c_msg *msg = &msgs[m];
		struct hil_chip *c = chip_at(msg->addr);

		if (!c || c->nak || (msg->flags & I2C_M_TEN)) {
			ret = -EREMOTEIO;
			break;
		}
		if (msg->flags & I2C_M_RD) {
			if (msg->len && (c->ptr == REG_GPIOA || c->ptr == REG_GPIOB))
				chip_poll(c);
			for (i = 0; i < msg->len; i++) {
				msg->buf[i] = chip_read(c, c->ptr);
				chip_next(c);
			}
			continue;
		}
		if (msg->len == 0)
			continue;
		if (msg->buf[0] >= HIL_NREGS) {
			ret = -EIO; /* the chip would NAK the register byte */
			break;
		}
		c->ptr = msg->buf[0];
		for (i = 1; i < msg->len; i++) {
			chip_write(c, c->ptr, msg->buf[i]);
			chip_next(c);
		}
	}
	mutex_unlock(&hil_lock);
	return ret;
}

static u32 hil_func(struct i2c_adapter *adap)
{
	return I2C_FUNC_I2C | I2C_FUNC_SMBUS_EMUL;
}

static const struct i2c_algorithm hil_algo = {
	.master_xfer = hil_xfer,
	.functionality = hil_func,
};

/* parses "ADDR STEP..." into c's script (not yet armed) */
static int parse_script(char *line, struct hil_chip **cp, struct hil_step *steps, int *n)
{
	char *tok, *cnt;
	u16 addr;
	int err;

	*n = 0;
	tok = strsep(&line, " \t");
	if (!tok || kstrtou16(tok, 0, &addr))
		return -EINVAL;
	*cp = chip_at(addr);
	if (!*cp)
		return -ENODEV;
	while ((tok = strsep(&line, " \t"))) {
		if (!*tok)
			continue;
		if (*n == HIL_MAXSTEPS)
			return -E2BIG;
		cnt = strchr(tok, ':');
		steps[*n].polls = 0;
		steps[*n].min_ms = 0;
		if (cnt) {
			char *ms;

			*cnt++ = 0;
			ms = strchr(cnt, ':');
			if (ms) {
				*ms++ = 0;
				if (kstrtou32(ms, 10, &steps[*n].min_ms))
					return -EINVAL;
			}
			err = kstrtou32(cnt, 10, &steps[*n].polls);
			if (err || steps[*n].polls == 0)
				return -EINVAL;
		}
		if (kstrtou16(tok, 16, &steps[*n].closed))
			return -EINVAL;
		(*n)++;
	}
	return *n ? 0 : -EINVAL;
}

static ssize_t hil_keys_store(struct device *dev, struct device_attribute *a, const char *buf, size_t len)
{
	struct pending {
		struct hil_chip *c;
		struct hil_step steps[HIL_MAXSTEPS];
		int n;
	} *p;
	char *text, *rest, *line;
	int np = 0, i, err = 0;

	p = kcalloc(HIL_MAXCHIPS, sizeof(*p), GFP_KERNEL);
	text = kstrndup(buf, len, GFP_KERNEL);
	if (!p || !text) {
		err = -ENOMEM;
		goto out;
	}
	rest = text;
	while ((line = strsep(&rest, "\n;"))) {
		if (!*strim(line))
			continue;
		if (np == HIL_MAXCHIPS) {
			err = -E2BIG;
			goto out;
		}
		err = parse_script(strim(line), &p[np].c, p[np].steps, &p[np].n);
		if (err)
			goto out;
		np++;
	}
	mutex_lock(&hil_lock);
	for (i = 0; i < np; i++) {
		struct hil_chip *c = p[i].c;

		memcpy(c->steps, p[i].steps, sizeof(c->steps));
		c->nsteps = p[i].n;
		c->cur = 0;
		c->used = 0;
	}
	mutex_unlock(&hil_lock);
out:
	kfree(text);
	kfree(p);
	return err ? err : len;
}
static DEVICE_ATTR_WO(hil_keys);

static ssize_t hil_nak_store(struct device *dev, struct device_attribute *a, const char *buf, size_t len)
{
	unsigned int addr, on;
	struct hil_chip *c;

	if (sscanf(buf, "%i %u", &addr, &on) != 2)
		return -EINVAL;
	mutex_lock(&hil_lock);
	c = chip_at(addr);
	if (c)
		c->nak = on;
	mutex_unlock(&hil_lock);
	return c ? len : -ENODEV;
}
static DEVICE_ATTR_WO(hil_nak);

static ssize_t hil_reset_store(struct device *dev, struct device_attribute *a, const char *buf, size_t len)
{
	int i;

	mutex_lock(&hil_lock);
	for (i = 0; i < nmcp; i++)
		chip_reset(&chips[i]);
	mutex_unlock(&hil_lock);
	return len;
}
static DEVICE_ATTR_WO(hil_reset);

static ssize_t hil_state_show(struct device *dev, struct device_attribute *a, char *buf)
{
	ssize_t n = 0;
	int i;

	mutex_lock(&hil_lock);
	for (i = 0; i < nmcp; i++) {
		struct hil_chip *c = &chips[i];

		n += sysfs_emit_at(buf, n,
				   "%#x iodir=%04x ipol=%04x gppu=%04x iocon=%02x olat=%04x closed=%04x nak=%d polls=%llu step=%d/%d\n",
				   c->addr, reg16(c, REG_IODIRA), reg16(c, REG_IPOLA), reg16(c, REG_GPPUA),
				   c->regs[REG_IOCONA], reg16(c, REG_OLATA), c->closed, c->nak,
				   c->polls, c->cur, c->nsteps);
	}
	mutex_unlock(&hil_lock);
	return n;
}
static DEVICE_ATTR_RO(hil_state);

static struct attribute *hil_attrs[] = {
	&dev_attr_hil_keys.attr,
	&dev_attr_hil_nak.attr,
	&dev_attr_hil_reset.attr,
	&dev_attr_hil_state.attr,
	NULL,
};
static const struct attribute_group hil_group = { .attrs = hil_attrs };

static int __init hil_i2c_init(void)
{
	int i, ret;

	for (i = 0; i < nmcp; i++) {
		if ((mcp[i] & ~7) != 0x20) {
			pr_err("hil-i2c: %#x is not an MCP23017 address\n", mcp[i]);
			return -EINVAL;
		}
		chips[i].addr = mcp[i];
		chip_reset(&chips[i]);
	}
	hil_adapter.owner = THIS_MODULE;
	hil_adapter.class = I2C_CLASS_HWMON;
	hil_adapter.algo = &hil_algo;
	hil_adapter.nr = 0;
	strscpy(hil_adapter.name, "hil-i2c (MCP23017 models)", sizeof(hil_adapter.name));
	ret = i2c_add_numbered_adapter(&hil_adapter);
	if (ret)
		return ret;
	ret = sysfs_create_group(&hil_adapter.dev.kobj, &hil_group);
	if (ret)
		i2c_del_adapter(&hil_adapter);
	return ret;
}

static void __exit hil_i2c_exit(void)
{
	sysfs_remove_group(&hil_adapter.dev.kobj, &hil_group);
	i2c_del_adapter(&hil_adapter);
}

module_init(hil_i2c_init);
module_exit(hil_i2c_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("an I2C bus of MCP23017 models with scripted key contacts, for HIL tests");
