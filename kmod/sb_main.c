// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs interface, all files root-only (names in <linux/slabbench.h>):
 *
 *   slabbench/info   what the module runs on (JSON)
 *   slabbench/tests  the catalogue: benchmarks, parameters, defaults,
 *                    bounds (JSON)
 *   slabbench/selftest  runs every benchmark once, small, and reports (KTAP)
 *   slabbench/slab_pages  the system's slab memory in pages once the frees
 *                    already made have landed (sb_settled_slab_pages())
 *   slabbench/run    write one spec, then read its result (JSON) from the
 *                    same open file; a bad spec fails the write with
 *                    -EINVAL (-E2BIG: SB_SPEC_MAX bytes or more) and the
 *                    read returns {"error": reason}.
 *                    Writing SB_SPEC_RELEASE frees what a benchmark kept
 *                    alive for inspection (overhead hold=1); so does the
 *                    next spec.
 *
 * One run at a time: a concurrent write, selftest or slab_pages gets
 * -EBUSY.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/uaccess.h>
#include <linux/utsname.h>
#include <linux/cpumask.h>
#include <linux/string.h>
#include <linux/slabbench.h>
#include "slabbench.h"

static struct dentry *sb_dir;
static DEFINE_MUTEX(sb_run_lock);

#if defined(CONFIG_SLAB)
#define SB_ALLOCATOR "SLAB"
#elif defined(CONFIG_SLUB)
#define SB_ALLOCATOR "SLUB"
#elif defined(CONFIG_SLOB)
#define SB_ALLOCATOR "SLOB"
#else
#error "unknown slab allocator"
#endif

static void sb_out_info(struct sb_out *out)
{
	sb_printf(out, "{\"module\":\"" SB_MODULE_NAME "\",\"interface\":1,\"allocator\":\"%s\",",
		  SB_ALLOCATOR);
	sb_printf(out, "\"release\":\"%s\",\"cpus_online\":%u,\"cpus_possible\":%u,",
		  init_utsname()->release, num_online_cpus(), num_possible_cpus());
	sb_printf(out, "\"page_size\":%lu,", PAGE_SIZE);
	sb_printf(out, "\"kmalloc_max_cache_size\":%lu,\"slab_no_merge\":%s,",
		  (unsigned long)KMALLOC_MAX_CACHE_SIZE,
		  SB_HAVE_SLAB_NO_MERGE ? "true" : "false");
	sb_printf(out, "\"mem_cap_bytes\":%llu,\"work_cap_pairs\":%llu,",
		  sb_mem_cap(), SB_WORK_CAP);
	sb_printf(out, "\"clock_step_ns\":%llu,\"clock_step_cycles\":%llu,",
		  sb_clock_step[SB_NS], sb_clock_step[SB_CYCLES]);
	sb_printf(out, "\"extra_ns\":%u,\"batch\":%u}\n", sb_extra_ns, SB_BATCH);
}

static void sb_out_tests(struct sb_out *out)
{
	sb_out_catalogue(out);
	sb_printf(out, "\n");
}

static void sb_out_slab_pages(struct sb_out *out)
{
	sb_printf(out, "%ld\n", sb_settled_slab_pages());
}

int sb_execute(struct sb_out *out, char *spec)
{
	struct sb_ctx *ctx;
	int ret;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	ctx->out = out;
	ret = sb_parse_spec(ctx, spec);
	if (!ret) {
		sb_rec_open(out, NULL);
		sb_rec_str(out, "test", ctx->bench->name);
		sb_out_params(out, ctx);
		ret = ctx->bench->run(ctx);
		sb_rec_end(out);
		sb_printf(out, "\n");
		if (!ret && out->overflow)
			ret = sb_fail(ctx, "result larger than %u bytes",
				      SB_OUT_SIZE);
	}
	if (ret)
		sb_out_error(out, ctx->reason[0] ? ctx->reason : "benchmark failed",
			     ret);
	sb_samples_free(&ctx->samples);
	kfree(ctx);
	return ret;
}

/*
 * A debugfs file: its content is generated at open into a buffer of the
 * open file, which read then serves. The run file has no generator: its
 * writes fill the buffer.
 */
struct sb_file {
	const char *name;
	umode_t mode;
	void (*gen)(struct sb_out *out);
	/*
	 * Opening runs something (the self-test, settling with its cache of
	 * a fixed name): one at a time with runs, nothing held across.
	 */
	bool locked;
};

static const struct sb_file sb_files[] = {
	{ SB_FILE_INFO,		0400, sb_out_info,	 false },
	{ SB_FILE_TESTS,	0400, sb_out_tests,	 false },
	{ SB_FILE_SELFTEST,	0400, sb_selftest,	 true },
	{ SB_FILE_SLAB_PAGES,	0400, sb_out_slab_pages, true },
	{ SB_FILE_RUN,		0600, NULL,		 false },
};

static int sb_open_generated(struct inode *inode, struct file *file,
			     const struct sb_file *f)
{
	struct sb_out *out;
	int ret;

	out = kzalloc(sizeof(*out), GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	ret = sb_out_init(out, SB_OUT_SIZE);
	if (ret) {
		kfree(out);
		return ret;
	}
	if (f->gen) {
		f->gen(out);
		if (out->overflow) {
			sb_out_free(out);
			kfree(out);
			return -EOVERFLOW;
		}
	}
	file->private_data = out;
	return nonseekable_open(inode, file);
}

static int sb_open(struct inode *inode, struct file *file)
{
	const struct sb_file *f = inode->i_private;
	int ret;

	if (!f->locked)
		return sb_open_generated(inode, file, f);
	if (!mutex_trylock(&sb_run_lock))
		return -EBUSY;
	sb_release_held();
	ret = sb_open_generated(inode, file, f);
	mutex_unlock(&sb_run_lock);
	return ret;
}

static int sb_release(struct inode *inode, struct file *file)
{
	struct sb_out *out = file->private_data;

	sb_out_free(out);
	kfree(out);
	return 0;
}

static ssize_t sb_read(struct file *file, char __user *ubuf, size_t count,
		       loff_t *ppos)
{
	struct sb_out *out = file->private_data;

	return simple_read_from_buffer(ubuf, count, ppos, out->buf, out->len);
}

static ssize_t sb_write(struct file *file, const char __user *ubuf,
			size_t count, loff_t *ppos)
{
	const struct sb_file *f = file_inode(file)->i_private;
	struct sb_out *out = file->private_data;
	char reason[48];
	char *spec;
	int ret;

	/*
	 * Only run takes writes; root may open the others for writing
	 * whatever their mode says. -EINVAL is what a file without a write
	 * method gives.
	 */
	if (f->gen)
		return -EINVAL;
	/*
	 * Every refusal but this one leaves its reason for the read: @out
	 * belongs to the open file, which another writer may be running on.
	 */
	if (!mutex_trylock(&sb_run_lock))
		return -EBUSY;
	sb_out_reset(out, false);
	spec = count < SB_SPEC_MAX ? memdup_user_nul(ubuf, count) :
				     ERR_PTR(-E2BIG);
	if (IS_ERR(spec)) {
		ret = PTR_ERR(spec);
		snprintf(reason, sizeof(reason), "spec of %zu bytes, at most %u",
			 count, SB_SPEC_MAX - 1);
		sb_out_error(out, ret == -E2BIG ? reason : "cannot copy the spec",
			     ret);
		goto unlock;
	}
	sb_release_held();
	ret = sysfs_streq(spec, SB_SPEC_RELEASE) ? 0 : sb_execute(out, spec);
	kfree(spec);
unlock:
	mutex_unlock(&sb_run_lock);
	return ret ? ret : count;
}

static const struct file_operations sb_fops = {
	.owner = THIS_MODULE,
	.open = sb_open,
	.read = sb_read,
	.write = sb_write,
	.release = sb_release,
};

unsigned int sb_extra_ns;
module_param_named(extra_ns, sb_extra_ns, uint, 0444);
MODULE_PARM_DESC(extra_ns,
		 "ns of busy loop added to every fastpath alloc+free: a known slowdown for tests");

static int __init sb_init(void)
{
	unsigned int i;

	if (sb_extra_ns > SB_EXTRA_NS_MAX) {
		pr_err(SB_MODULE_NAME ": extra_ns=%u: at most %u\n", sb_extra_ns,
		       SB_EXTRA_NS_MAX);
		return -EINVAL;
	}

	sb_dir = debugfs_create_dir(SB_DEBUGFS_DIR, NULL);
	if (IS_ERR(sb_dir))
		return PTR_ERR(sb_dir);
	for (i = 0; i < ARRAY_SIZE(sb_files); i++)
		debugfs_create_file(sb_files[i].name, sb_files[i].mode, sb_dir,
				    (void *)&sb_files[i], &sb_fops);
	sb_mark_gates();
	sb_clock_steps();
	return 0;
}

static void __exit sb_exit(void)
{
	debugfs_remove_recursive(sb_dir);
	sb_release_held();
}

module_init(sb_init);
module_exit(sb_exit);
MODULE_DESCRIPTION("slab allocator microbenchmarks");
MODULE_AUTHOR("slabbench");
MODULE_LICENSE("GPL");
