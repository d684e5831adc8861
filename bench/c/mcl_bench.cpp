/*
 * Times mcl (https://github.com/herumi/mcl, built from source by the user) for bench/mcl.py:
 *
 *     mcl_bench CURVE OP [OP ...]      CURVE: bn_snark1 | bls12_381 | bls12_377 | bn254 (mcl's BN254)
 *
 * OP: pairing, miller_loop, final_exp, g1_mul_ct, g2_mul_ct, g1_mul, g2_mul, or g1_msm_N (mcl's
 * single-threaded G1::mulVec on N points; it picks its AVX-512 IFMA code by itself where the CPU
 * has it).  Each OP prints one line "OP SECONDS_PER_CALL": process CPU seconds, the fastest of 5
 * batches of about 50 ms, after a warm-up call (CPU time, as bench/mcl.py measures ours: on a
 * shared machine it is the steadier clock).  Inputs are random subgroup points and scalars from mcl's CSPRNG.
 */
#include <mcl/bn.hpp>

#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace mcl::bn;

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double seconds_per_call(const std::function<void()> &fn)
{
    fn();
    size_t calls = 1;
    for (;;) {  /* calls per batch of about 50 ms */
        double t0 = cpu_seconds();
        for (size_t i = 0; i < calls; i++)
            fn();
        double s = cpu_seconds() - t0;
        if (s >= 0.05)
            break;
        calls = s <= 0.0 ? calls * 10 : (size_t)(calls * 0.06 / s) + 1;
    }
    double best = 1e30;
    for (int b = 0; b < 5; b++) {
        double t0 = cpu_seconds();
        for (size_t i = 0; i < calls; i++)
            fn();
        double s = (cpu_seconds() - t0) / (double)calls;
        if (s < best)
            best = s;
    }
    return best;
}

static bool init_curve(const char *name)
{
    if (!strcmp(name, "bn_snark1"))
        initPairing(mcl::BN_SNARK1);
    else if (!strcmp(name, "bls12_381"))
        initPairing(mcl::BLS12_381);
    else if (!strcmp(name, "bls12_377"))
        initPairing(mcl::BLS12_377);
    else if (!strcmp(name, "bn254"))
        initPairing(mcl::BN254);
    else
        return false;
    return true;
}

int main(int argc, char **argv)
{
    if (argc < 3 || !init_curve(argv[1])) {
        fprintf(stderr, "usage: %s bn_snark1|bls12_381|bls12_377|bn254 OP [OP ...]\n", argv[0]);
        return 2;
    }
    G1 P, P2;
    G2 Q, Q2;
    Fr a;
    Fp12 f, e;
    hashAndMapToG1(P, "pairforge bench P");
    hashAndMapToG2(Q, "pairforge bench Q");
    a.setByCSPRNG();
    G1::mul(P, P, a);
    a.setByCSPRNG();
    G2::mul(Q, Q, a);
    millerLoop(f, P, Q);
    for (int i = 2; i < argc; i++) {
        std::string op = argv[i];
        double s;
        a.setByCSPRNG();
        if (op == "pairing")
            s = seconds_per_call([&] { pairing(e, P, Q); });
        else if (op == "miller_loop")
            s = seconds_per_call([&] { millerLoop(e, P, Q); });
        else if (op == "final_exp")
            s = seconds_per_call([&] { finalExp(e, f); });
        else if (op == "g1_mul_ct")
            s = seconds_per_call([&] { G1::mulCT(P2, P, a); });
        else if (op == "g2_mul_ct")
            s = seconds_per_call([&] { G2::mulCT(Q2, Q, a); });
        else if (op == "g1_mul")
            s = seconds_per_call([&] { G1::mul(P2, P, a); });
        else if (op == "g2_mul")
            s = seconds_per_call([&] { G2::mul(Q2, Q, a); });
        else if (op.rfind("g1_msm_", 0) == 0) {
            size_t n = strtoul(op.c_str() + 7, NULL, 10);
            std::vector<G1> points(n);
            std::vector<Fr> scalars(n);
            for (size_t j = 0; j < n; j++) {
                scalars[j].setByCSPRNG();
                G1::mul(points[j], P, scalars[j]);
                scalars[j].setByCSPRNG();
            }
            G1::normalizeVec(points.data(), points.data(), n);
            s = seconds_per_call([&] {
                std::vector<G1> xs(points);  /* mulVec may overwrite its points */
                G1::mulVec(P2, xs.data(), scalars.data(), n);
            });
        } else {
            fprintf(stderr, "unknown op %s\n", op.c_str());
            return 2;
        }
        printf("%s %.9g\n", op.c_str(), s);
        fflush(stdout);
    }
    return 0;
}
