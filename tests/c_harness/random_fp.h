/* Random field elements for the C harnesses (a fixed xorshift stream, so every run checks the
 * same inputs): include after pairforge.h. */
#ifndef HARNESS_RANDOM_FP_H
#define HARNESS_RANDOM_FP_H

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t rng_next(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* A random element of Fp: random limbs below the top one (so below p), squared to spread it. */
static void rand_fp(fp_t *out)
{
    limb_t l[FP_NLIMBS];

    for (size_t i = 0; i < FP_NLIMBS; i++)
        l[i] = i + 1 < FP_NLIMBS ? (limb_t)rng_next() : 0;
    fp_from_int(out, l);
    fp_sqr(out, out);
}

#endif /* HARNESS_RANDOM_FP_H */
