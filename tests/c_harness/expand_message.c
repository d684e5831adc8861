/* expand_message.h's SHA-256 and expand_message_xmd on given inputs: reads lines "msg dst len"
 * (msg and dst in hex, "-" for empty msg) from stdin and prints expand_message_xmd(msg, dst, len)
 * in hex, one line each; then "ni N" (N = 1 when the SHA-extension block function ran).  Built by
 * tests/emit/test_expand_message_c.py as shipped and with -DPF_NO_SHA_NI (the portable block only). */
#include <stdio.h>
#include <string.h>

#include "pairforge.h"

static size_t read_hex(uint8_t *out, size_t cap, const char *hex)
{
    size_t n = 0;

    if (strcmp(hex, "-") == 0)
        return 0;
    while (hex[0] && hex[1] && n < cap) {
        unsigned int v;

        if (sscanf(hex, "%2x", &v) != 1)
            break;
        out[n++] = (uint8_t)v;
        hex += 2;
    }
    return n;
}

int main(void)
{
    static char msg_hex[4096], dst_hex[4096];
    static uint8_t msg[2048], dst[2048], out[8160];
    size_t len;

    while (scanf("%4095s %4095s %zu", msg_hex, dst_hex, &len) == 3) {
        size_t msg_len = read_hex(msg, sizeof msg, msg_hex), dst_len = read_hex(dst, sizeof dst, dst_hex);

        if (len == 0 || len > sizeof out || dst_len == 0)
            return 2;
        pf_expand_message_xmd(out, len, msg, msg_len, dst, dst_len);
        for (size_t i = 0; i < len; i++)
            printf("%02x", out[i]);
        printf("\n");
    }
#if defined(__x86_64__) && !defined(PF_NO_SHA_NI)
    printf("ni %d\n", pf_sha_ni_available());
#else
    printf("ni 0\n");
#endif
    return 0;
}
