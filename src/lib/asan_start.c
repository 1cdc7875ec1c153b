/* asan_start.c: in a build with AddressSanitizer only, maps the program's zeroed globals at start in one call, so that the leak check at exit reads them without a page fault each. */

/*
 * LeakSanitizer's check at exit reads every global of the program, and
 * the sanitizer runtime linked into it keeps some 10 MB of zeroed tables
 * there that the program never touches: read one page at a time, each a
 * page fault, they cost a short command (ngoma legal) a quarter of its
 * time under the sanitizers, the checks of tests/ run 1,500 of them. One
 * madvise(MADV_POPULATE_READ) maps them at once (huge pages where the
 * kernel gives them). A build without the sanitizer has none of this.
 */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NGOMA_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define NGOMA_ASAN 1
#endif

#ifdef NGOMA_ASAN
#include <elf.h>
#include <stdint.h>
#include <sys/auxv.h>
#include <sys/mman.h>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22 /* Linux 5.14; an older kernel says EINVAL, and nothing changes */
#endif

__attribute__((constructor)) static void asan_globals_in(void)
{
    const Elf64_Phdr *ph = (const Elf64_Phdr *)getauxval(AT_PHDR);
    unsigned long n = getauxval(AT_PHNUM);
    uintptr_t bias = 0, page = 4096, huge = 2u << 20;
    if (!ph || sizeof(void *) != 8)
        return;
    for (unsigned long i = 0; i < n; i++)
        if (ph[i].p_type == PT_PHDR)
            bias = (uintptr_t)ph - ph[i].p_vaddr;
    for (unsigned long i = 0; i < n; i++) {
        uintptr_t a, b, ha, hb;
        if (ph[i].p_type != PT_LOAD || ph[i].p_memsz <= ph[i].p_filesz)
            continue;
        /* The zeroed part past the file's bytes (.bss). */
        a = (bias + ph[i].p_vaddr + ph[i].p_filesz + page - 1) & ~(page - 1);
        b = (bias + ph[i].p_vaddr + ph[i].p_memsz + page - 1) & ~(page - 1);
        if (b <= a)
            continue;
        ha = (a + huge - 1) & ~(huge - 1);
        hb = b & ~(huge - 1);
        if (hb > ha)
            madvise((void *)ha, hb - ha, MADV_HUGEPAGE);
        madvise((void *)a, b - a, MADV_POPULATE_READ);
    }
}
#endif

/* ISO C wants something in every file. */
int asan_start_compiled;
