/* A main for gcc builds: run a libFuzzer target over every file in the given
 * directories (the seed corpus) so `scripts/test` exercises each parser. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
    size_t got = buf ? fread(buf, 1, (size_t)(n > 0 ? n : 0), f) : 0;
    fclose(f);
    if (!buf)
        return -1;
    LLVMFuzzerTestOneInput(buf, got);
    /* also every prefix-truncation at a few points: truncated input must not crash */
    for (size_t cut = 1; cut < got; cut += got / 7 + 1)
        LLVMFuzzerTestOneInput(buf, cut);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    size_t files = 0;
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    for (int i = 1; i < argc; i++) {
        DIR *d = opendir(argv[i]);
        if (!d) {
            if (run_file(argv[i]) == 0)
                files++;
            continue;
        }
        struct dirent *de;
        while ((de = readdir(d))) {
            if (de->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], de->d_name);
            if (run_file(path) == 0)
                files++;
        }
        closedir(d);
    }
    printf("%zu corpus files run\n", files);
    return files ? 0 : 1;
}
