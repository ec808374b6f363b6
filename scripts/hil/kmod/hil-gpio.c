// SPDX-License-Identifier: GPL-2.0
/*
 * hil-gpio: a GPIO chip (/dev/gpiochipN, the kernel's GPIO character
 * device) whose lines are switches wired to the outside, for wolftable's
 * hardware-in-the-loop tests. The lines are named by the module parameter
 * lines= ("GPIO17" as on the Raspberry Pi's gpiochip0).
 *
 * Each line has the bias its consumer set (set_config: pull-up, pull-down or
 * none; it comes up with the pull-down on, as GPIO17 does on a Pi, and keeps
 * what it was given after it is released, as a Pi's pin does) and an outside
 * drive: "0" (a switch closed to ground), "1" (closed to 3.3 V) or "z"
 * (open). An input reads the drive, or with the switch open its bias, and
 * reads 0 when floating.
 *
 * Controls, in /sys/devices/platform/hil-gpio/:
 *   drive  (write) "OFFSET STEP...", STEP = "LEVEL[:N[:MS]]" with LEVEL 0,
 *          1 or z: the drive for the next N reads of the line's value, and
 *          at least MS milliseconds from the first of them; the last step
 *          without :N holds.
 *   reset  (write) every line back to its power-on state: input, pull-down,
 *          open, counters zeroed.
 *   state  (read) one line per line:
 *          "0 GPIO17 dir=in bias=pull-down drive=z level=0 reads=0 step=0/0"
 */
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/gpio/driver.h>
#include <linux/pinctrl/pinconf-generic.h>
#include <linux/spinlock.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/ktime.h>

#define HIL_MAXLINES 8
#define HIL_MAXSTEPS 64

static char *lines[HIL_MAXLINES] = { "GPIO17" };
static int nlines = 1;
module_param_array(lines, charp, &nlines, 0444);
MODULE_PARM_DESC(lines, "the lines' names, e.g. GPIO17,GPIO27");

enum hil_bias { BIAS_NONE, BIAS_UP, BIAS_DOWN };
static const char *const bias_names[] = { "none", "pull-up", "pull-down" };

enum hil_drive { DRIVE_LOW, DRIVE_HIGH, DRIVE_OPEN };
static const char *const drive_names[] = { "0", "1", "z" };

struct hil_step {
	u8 drive;
	u32 reads; /* 0: holds */
	u32 min_ms;
};

struct hil_line {
	bool out;
	int value; /* as an output */
	enum hil_bias bias;
	enum hil_drive drive;
	u64 reads;
	struct hil_step steps[HIL_MAXSTEPS];
	int nsteps, cur;
	u32 used;      /* reads of steps[cur] so far */
	ktime_t start; /* the first of them */
};

static struct hil_line state[HIL_MAXLINES];
static DEFINE_SPINLOCK(hil_lock);
static struct platform_device *pdev;
static struct gpio_chip chip;

static void line_reset(struct hil_line *l)
{
	memset(l, 0, sizeof(*l));
	l->bias = BIAS_DOWN;
	l->drive = DRIVE_OPEN;
}

static int line_level(struct hil_line *l)
{
	if (l->out)
		return l->value;
	switch (l->drive) {
	case DRIVE_LOW:
		return 0;
	case DRIVE_HIGH:
		return 1;
	default:
		return l->bias == BIAS_UP;
	}
}

/*
 * The drive at this read: the current step's, until it has had its reads and
 * its time; then the next one's. A step without a count holds, and ends the
 * script.
 */
static void line_read(struct hil_line *l)
{
	ktime_t now = ktime_get();

	l->reads++;
	while (l->cur < l->nsteps) {
		struct hil_step *st = &l->steps[l->cur];

		if (!l->used)
			l->start = now;
		l->drive = st->drive;
		if (!st->reads) {
			l->cur = l->nsteps;
			return;
		}
		if (l->used < st->reads || ktime_ms_delta(now, l->start) < st->min_ms) {
			l->used++;
			return;
		}
		l->cur++;
		l->used = 0;
	}
}

static int hil_get(struct gpio_chip *gc, unsigned int off)
{
	struct hil_line *l = &state[off];
	unsigned long flags;
	int v;

	spin_lock_irqsave(&hil_lock, flags);
	line_read(l);
	v = line_level(l);
	spin_unlock_irqrestore(&hil_lock, flags);
	return v;
}

static void hil_set(struct gpio_chip *gc, unsigned int off, int value)
{
	unsigned long flags;

	spin_lock_irqsave(&hil_lock, flags);
	state[off].value = !!value;
	spin_unlock_irqrestore(&hil_lock, flags);
}

static int hil_get_direction(struct gpio_chip *gc, unsigned int off)
{
	return state[off].out ? GPIO_LINE_DIRECTION_OUT : GPIO_LINE_DIRECTION_IN;
}

static int hil_direction_input(struct gpio_chip *gc, unsigned int off)
{
	unsigned long flags;

	spin_lock_irqsave(&hil_lock, flags);
	state[off].out = false;
	spin_unlock_irqrestore(&hil_lock, flags);
	return 0;
}

static int hil_direction_output(struct gpio_chip *gc, unsigned int off, int value)
{
	unsigned long flags;

	spin_lock_irqsave(&hil_lock, flags);
	state[off].out = true;
	state[off].value = !!value;
	spin_unlock_irqrestore(&hil_lock, flags);
	return 0;
}

static int hil_set_config(struct gpio_chip *gc, unsigned int off, unsigned long config)
{
	enum hil_bias b;
	unsigned long flags;

	switch (pinconf_to_config_param(config)) {
	case PIN_CONFIG_BIAS_PULL_UP:
		b = BIAS_UP;
		break;
	case PIN_CONFIG_BIAS_PULL_DOWN:
		b = BIAS_DOWN;
		break;
	case PIN_CONFIG_BIAS_DISABLE:
		b = BIAS_NONE;
		break;
	default:
		return -ENOTSUPP;
	}
	spin_lock_irqsave(&hil_lock, flags);
	state[off].bias = b;
	spin_unlock_irqrestore(&hil_lock, flags);
	return 0;
}

static int parse_drive(const char *s, u8 *d)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(drive_names); i++) {
		if (!strcmp(s, drive_names[i])) {
			*d = i;
			return 0;
		}
	}
	return -EINVAL;
}

static ssize_t drive_store(struct device *dev, struct device_attribute *a, const char *buf, size_t len)
{
	struct hil_step *steps;
	char *text, *rest, *tok, *cnt;
	unsigned int off;
	unsigned long flags;
	int n = 0, err = -EINVAL;

	steps = kcalloc(HIL_MAXSTEPS, sizeof(*steps), GFP_KERNEL);
	text = kstrndup(buf, len, GFP_KERNEL);
	if (!steps || !text) {
		err = -ENOMEM;
		goto out;
	}
	rest = strim(text);
	tok = strsep(&rest, " \t");
	if (!tok || kstrtouint(tok, 0, &off) || off >= nlines)
		goto out;
	while ((tok = strsep(&rest, " \t"))) {
		if (!*tok)
			continue;
		if (n == HIL_MAXSTEPS) {
			err = -E2BIG;
			goto out;
		}
		cnt = strchr(tok, ':');
		if (cnt) {
			char *ms;

			*cnt++ = 0;
			ms = strchr(cnt, ':');
			if (ms) {
				*ms++ = 0;
				if (kstrtou32(ms, 10, &steps[n].min_ms))
					goto out;
			}
			if (kstrtou32(cnt, 10, &steps[n].reads) || !steps[n].reads)
				goto out;
		}
		if (parse_drive(tok, &steps[n].drive))
			goto out;
		n++;
	}
	if (!n)
		goto out;
	spin_lock_irqsave(&hil_lock, flags);
	memcpy(state[off].steps, steps, sizeof(state[off].steps));
	state[off].nsteps = n;
	state[off].cur = 0;
	state[off].used = 0;
	spin_unlock_irqrestore(&hil_lock, flags);
	err = 0;
out:
	kfree(text);
	kfree(steps);
	return err ? err : len;
}
static DEVICE_ATTR_WO(drive);

static ssize_t reset_store(struct device *dev, struct device_attribute *a, const char *buf, size_t len)
{
	unsigned long flags;
	int i;

	spin_lock_irqsave(&hil_lock, flags);
	for (i = 0; i < nlines; i++)
		line_reset(&state[i]);
	spin_unlock_irqrestore(&hil_lock, flags);
	return len;
}
static DEVICE_ATTR_WO(reset);

static ssize_t state_show(struct device *dev, struct device_attribute *a, char *buf)
{
	unsigned long flags;
	ssize_t n = 0;
	int i;

	for (i = 0; i < nlines; i++) {
		struct hil_line *l = &state[i];
		bool out;
		enum hil_bias bias;
		enum hil_drive drive;
		int level, cur, nsteps;
		u64 reads;

		spin_lock_irqsave(&hil_lock, flags);
		out = l->out;
		bias = l->bias;
		drive = l->drive;
		level = line_level(l);
		reads = l->reads;
		cur = l->cur;
		nsteps = l->nsteps;
		spin_unlock_irqrestore(&hil_lock, flags);
		n += sysfs_emit_at(buf, n, "%d %s dir=%s bias=%s drive=%s level=%d reads=%llu step=%d/%d\n",
				   i, lines[i], out ? "out" : "in", bias_names[bias],
				   drive_names[drive], level, reads, cur, nsteps);
	}
	return n;
}
static DEVICE_ATTR_RO(state);

static struct attribute *hil_attrs[] = {
	&dev_attr_drive.attr,
	&dev_attr_reset.attr,
	&dev_attr_state.attr,
	NULL,
};
static const struct attribute_group hil_group = { .attrs = hil_attrs };

static int __init hil_gpio_init(void)
{
	int i, ret;

	if (nlines < 1 || nlines > HIL_MAXLINES)
		return -EINVAL;
	for (i = 0; i < nlines; i++)
		line_reset(&state[i]);
	pdev = platform_device_register_simple("hil-gpio", -1, NULL, 0);
	if (IS_ERR(pdev))
		return PTR_ERR(pdev);
	chip.label = "hil-gpio";
	chip.parent = &pdev->dev;
	chip.owner = THIS_MODULE;
	chip.base = -1;
	chip.ngpio = nlines;
	chip.names = (const char *const *)lines;
	chip.get = hil_get;
	chip.set = hil_set;
	chip.get_direction = hil_get_direction;
	chip.direction_input = hil_direction_input;
	chip.direction_output = hil_direction_output;
	chip.set_config = hil_set_config;
	ret = gpiochip_add_data(&chip, NULL);
	if (ret)
		goto err_pdev;
	ret = sysfs_create_group(&pdev->dev.kobj, &hil_group);
	if (ret)
		goto err_chip;
	return 0;
err_chip:
	gpiochip_remove(&chip);
err_pdev:
	platform_device_unregister(pdev);
	return ret;
}

static void __exit hil_gpio_exit(void)
{
	sysfs_remove_group(&pdev->dev.kobj, &hil_group);
	gpiochip_remove(&chip);
	platform_device_unregister(pdev);
}

module_init(hil_gpio_init);
module_exit(hil_gpio_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("a GPIO chip of switches with scripted levels and recorded bias, for HIL tests");
