/*
 * Test-only stand-in for Windows' bcryptprimitives.dll, for running sowbridge's tests
 * under Wine 8 (Debian 12), which lacks it.
 *
 * Rust's standard library (1.78 and later) imports ProcessPrng from bcryptprimitives.dll
 * for its random hash seeds. Every Windows 10 and 11 has that DLL; Wine 8 does not, so a
 * Rust program built for Windows does not even load there. This DLL exports ProcessPrng on
 * top of advapi32's SystemFunction036 (RtlGenRandom), which Wine has. CI builds it with
 * mingw and puts it beside the test executables. It is never shipped: the release zip
 * holds sowbridge.exe alone, which uses the real DLL of Windows.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk)) {
            return FALSE;
        }
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
