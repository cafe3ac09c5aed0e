/* sq-numbers.c: decimal numbers read and printed exactly, without the locale
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "sq-numbers"

#include "config.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sq-math.h"
#include "sq-numbers.h"

const guint64 _sq_pow10_u64[20] = {
  G_GUINT64_CONSTANT (1), G_GUINT64_CONSTANT (10), G_GUINT64_CONSTANT (100), G_GUINT64_CONSTANT (1000),
  G_GUINT64_CONSTANT (10000), G_GUINT64_CONSTANT (100000), G_GUINT64_CONSTANT (1000000),
  G_GUINT64_CONSTANT (10000000), G_GUINT64_CONSTANT (100000000), G_GUINT64_CONSTANT (1000000000),
  G_GUINT64_CONSTANT (10000000000), G_GUINT64_CONSTANT (100000000000), G_GUINT64_CONSTANT (1000000000000),
  G_GUINT64_CONSTANT (10000000000000), G_GUINT64_CONSTANT (100000000000000),
  G_GUINT64_CONSTANT (1000000000000000), G_GUINT64_CONSTANT (10000000000000000),
  G_GUINT64_CONSTANT (100000000000000000), G_GUINT64_CONSTANT (1000000000000000000),
  G_GUINT64_CONSTANT (10000000000000000000),
};

/* Exact powers of ten a double holds */
const double _sq_pow10_exact[23] = {
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

#if defined(__x86_64__) && LDBL_MANT_DIG == 64 && !defined(SQ_NO_EXTENDED_FAST_PATH)
/* x87 extended precision, for round_digits when the exact 128-bit path
 * is out of range: a 64-bit significand holds 10^k exactly up to 10^27
 * (5^27 < 2^64), and one multiplication or division of two such values is
 * correctly rounded to 64 bits. */
#define SQ_HAVE_EXTENDED 1
#define SQ_POW10_LD_MAX 27
static const long double pow10_ld[] = {
  1e0L, 1e1L, 1e2L, 1e3L, 1e4L, 1e5L, 1e6L, 1e7L, 1e8L, 1e9L, 1e10L, 1e11L, 1e12L, 1e13L,
  1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L, 1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L,
  1e26L, 1e27L,
};

#endif

/* 5^q for q from SQ_POW5_MIN to SQ_POW5_MAX as 128-bit fractions: hi:lo is
 * 5^q times the power of two that puts its top bit at bit 127, truncated
 * (exact for 0 <= q <= 55); e2 is floor (log2 (5^q)). Computed offline with
 * exact integers: 5^q shifted for q >= 0, floor (2^(127 + b) / 5^-q) with b
 * the bit length of 5^-q for q < 0. Entry i is 5^(i + SQ_POW5_MIN). */
const SqPow5 _sq_pow5_128[SQ_POW5_MAX - SQ_POW5_MIN + 1] = {
  { G_GUINT64_CONSTANT (0xa87fea27a539e9a5), G_GUINT64_CONSTANT (0x3f2398d747b36224), -149 },   /* 5^-64 */
  { G_GUINT64_CONSTANT (0xd29fe4b18e88640e), G_GUINT64_CONSTANT (0x8eec7f0d19a03aad), -147 },   /* 5^-63 */
  { G_GUINT64_CONSTANT (0x83a3eeeef9153e89), G_GUINT64_CONSTANT (0x1953cf68300424ac), -144 },   /* 5^-62 */
  { G_GUINT64_CONSTANT (0xa48ceaaab75a8e2b), G_GUINT64_CONSTANT (0x5fa8c3423c052dd7), -142 },   /* 5^-61 */
  { G_GUINT64_CONSTANT (0xcdb02555653131b6), G_GUINT64_CONSTANT (0x3792f412cb06794d), -140 },   /* 5^-60 */
  { G_GUINT64_CONSTANT (0x808e17555f3ebf11), G_GUINT64_CONSTANT (0xe2bbd88bbee40bd0), -137 },   /* 5^-59 */
  { G_GUINT64_CONSTANT (0xa0b19d2ab70e6ed6), G_GUINT64_CONSTANT (0x5b6aceaeae9d0ec4), -135 },   /* 5^-58 */
  { G_GUINT64_CONSTANT (0xc8de047564d20a8b), G_GUINT64_CONSTANT (0xf245825a5a445275), -133 },   /* 5^-57 */
  { G_GUINT64_CONSTANT (0xfb158592be068d2e), G_GUINT64_CONSTANT (0xeed6e2f0f0d56712), -131 },   /* 5^-56 */
  { G_GUINT64_CONSTANT (0x9ced737bb6c4183d), G_GUINT64_CONSTANT (0x55464dd69685606b), -128 },   /* 5^-55 */
  { G_GUINT64_CONSTANT (0xc428d05aa4751e4c), G_GUINT64_CONSTANT (0xaa97e14c3c26b886), -126 },   /* 5^-54 */
  { G_GUINT64_CONSTANT (0xf53304714d9265df), G_GUINT64_CONSTANT (0xd53dd99f4b3066a8), -124 },   /* 5^-53 */
  { G_GUINT64_CONSTANT (0x993fe2c6d07b7fab), G_GUINT64_CONSTANT (0xe546a8038efe4029), -121 },   /* 5^-52 */
  { G_GUINT64_CONSTANT (0xbf8fdb78849a5f96), G_GUINT64_CONSTANT (0xde98520472bdd033), -119 },   /* 5^-51 */
  { G_GUINT64_CONSTANT (0xef73d256a5c0f77c), G_GUINT64_CONSTANT (0x963e66858f6d4440), -117 },   /* 5^-50 */
  { G_GUINT64_CONSTANT (0x95a8637627989aad), G_GUINT64_CONSTANT (0xdde7001379a44aa8), -114 },   /* 5^-49 */
  { G_GUINT64_CONSTANT (0xbb127c53b17ec159), G_GUINT64_CONSTANT (0x5560c018580d5d52), -112 },   /* 5^-48 */
  { G_GUINT64_CONSTANT (0xe9d71b689dde71af), G_GUINT64_CONSTANT (0xaab8f01e6e10b4a6), -110 },   /* 5^-47 */
  { G_GUINT64_CONSTANT (0x9226712162ab070d), G_GUINT64_CONSTANT (0xcab3961304ca70e8), -107 },   /* 5^-46 */
  { G_GUINT64_CONSTANT (0xb6b00d69bb55c8d1), G_GUINT64_CONSTANT (0x3d607b97c5fd0d22), -105 },   /* 5^-45 */
  { G_GUINT64_CONSTANT (0xe45c10c42a2b3b05), G_GUINT64_CONSTANT (0x8cb89a7db77c506a), -103 },   /* 5^-44 */
  { G_GUINT64_CONSTANT (0x8eb98a7a9a5b04e3), G_GUINT64_CONSTANT (0x77f3608e92adb242), -100 },   /* 5^-43 */
  { G_GUINT64_CONSTANT (0xb267ed1940f1c61c), G_GUINT64_CONSTANT (0x55f038b237591ed3), -98 },   /* 5^-42 */
  { G_GUINT64_CONSTANT (0xdf01e85f912e37a3), G_GUINT64_CONSTANT (0x6b6c46dec52f6688), -96 },   /* 5^-41 */
  { G_GUINT64_CONSTANT (0x8b61313bbabce2c6), G_GUINT64_CONSTANT (0x2323ac4b3b3da015), -93 },   /* 5^-40 */
  { G_GUINT64_CONSTANT (0xae397d8aa96c1b77), G_GUINT64_CONSTANT (0xabec975e0a0d081a), -91 },   /* 5^-39 */
  { G_GUINT64_CONSTANT (0xd9c7dced53c72255), G_GUINT64_CONSTANT (0x96e7bd358c904a21), -89 },   /* 5^-38 */
  { G_GUINT64_CONSTANT (0x881cea14545c7575), G_GUINT64_CONSTANT (0x7e50d64177da2e54), -86 },   /* 5^-37 */
  { G_GUINT64_CONSTANT (0xaa242499697392d2), G_GUINT64_CONSTANT (0xdde50bd1d5d0b9e9), -84 },   /* 5^-36 */
  { G_GUINT64_CONSTANT (0xd4ad2dbfc3d07787), G_GUINT64_CONSTANT (0x955e4ec64b44e864), -82 },   /* 5^-35 */
  { G_GUINT64_CONSTANT (0x84ec3c97da624ab4), G_GUINT64_CONSTANT (0xbd5af13bef0b113e), -79 },   /* 5^-34 */
  { G_GUINT64_CONSTANT (0xa6274bbdd0fadd61), G_GUINT64_CONSTANT (0xecb1ad8aeacdd58e), -77 },   /* 5^-33 */
  { G_GUINT64_CONSTANT (0xcfb11ead453994ba), G_GUINT64_CONSTANT (0x67de18eda5814af2), -75 },   /* 5^-32 */
  { G_GUINT64_CONSTANT (0x81ceb32c4b43fcf4), G_GUINT64_CONSTANT (0x80eacf948770ced7), -72 },   /* 5^-31 */
  { G_GUINT64_CONSTANT (0xa2425ff75e14fc31), G_GUINT64_CONSTANT (0xa1258379a94d028d), -70 },   /* 5^-30 */
  { G_GUINT64_CONSTANT (0xcad2f7f5359a3b3e), G_GUINT64_CONSTANT (0x096ee45813a04330), -68 },   /* 5^-29 */
  { G_GUINT64_CONSTANT (0xfd87b5f28300ca0d), G_GUINT64_CONSTANT (0x8bca9d6e188853fc), -66 },   /* 5^-28 */
  { G_GUINT64_CONSTANT (0x9e74d1b791e07e48), G_GUINT64_CONSTANT (0x775ea264cf55347d), -63 },   /* 5^-27 */
  { G_GUINT64_CONSTANT (0xc612062576589dda), G_GUINT64_CONSTANT (0x95364afe032a819d), -61 },   /* 5^-26 */
  { G_GUINT64_CONSTANT (0xf79687aed3eec551), G_GUINT64_CONSTANT (0x3a83ddbd83f52204), -59 },   /* 5^-25 */
  { G_GUINT64_CONSTANT (0x9abe14cd44753b52), G_GUINT64_CONSTANT (0xc4926a9672793542), -56 },   /* 5^-24 */
  { G_GUINT64_CONSTANT (0xc16d9a0095928a27), G_GUINT64_CONSTANT (0x75b7053c0f178293), -54 },   /* 5^-23 */
  { G_GUINT64_CONSTANT (0xf1c90080baf72cb1), G_GUINT64_CONSTANT (0x5324c68b12dd6338), -52 },   /* 5^-22 */
  { G_GUINT64_CONSTANT (0x971da05074da7bee), G_GUINT64_CONSTANT (0xd3f6fc16ebca5e03), -49 },   /* 5^-21 */
  { G_GUINT64_CONSTANT (0xbce5086492111aea), G_GUINT64_CONSTANT (0x88f4bb1ca6bcf584), -47 },   /* 5^-20 */
  { G_GUINT64_CONSTANT (0xec1e4a7db69561a5), G_GUINT64_CONSTANT (0x2b31e9e3d06c32e5), -45 },   /* 5^-19 */
  { G_GUINT64_CONSTANT (0x9392ee8e921d5d07), G_GUINT64_CONSTANT (0x3aff322e62439fcf), -42 },   /* 5^-18 */
  { G_GUINT64_CONSTANT (0xb877aa3236a4b449), G_GUINT64_CONSTANT (0x09befeb9fad487c2), -40 },   /* 5^-17 */
  { G_GUINT64_CONSTANT (0xe69594bec44de15b), G_GUINT64_CONSTANT (0x4c2ebe687989a9b3), -38 },   /* 5^-16 */
  { G_GUINT64_CONSTANT (0x901d7cf73ab0acd9), G_GUINT64_CONSTANT (0x0f9d37014bf60a10), -35 },   /* 5^-15 */
  { G_GUINT64_CONSTANT (0xb424dc35095cd80f), G_GUINT64_CONSTANT (0x538484c19ef38c94), -33 },   /* 5^-14 */
  { G_GUINT64_CONSTANT (0xe12e13424bb40e13), G_GUINT64_CONSTANT (0x2865a5f206b06fb9), -31 },   /* 5^-13 */
  { G_GUINT64_CONSTANT (0x8cbccc096f5088cb), G_GUINT64_CONSTANT (0xf93f87b7442e45d3), -28 },   /* 5^-12 */
  { G_GUINT64_CONSTANT (0xafebff0bcb24aafe), G_GUINT64_CONSTANT (0xf78f69a51539d748), -26 },   /* 5^-11 */
  { G_GUINT64_CONSTANT (0xdbe6fecebdedd5be), G_GUINT64_CONSTANT (0xb573440e5a884d1b), -24 },   /* 5^-10 */
  { G_GUINT64_CONSTANT (0x89705f4136b4a597), G_GUINT64_CONSTANT (0x31680a88f8953030), -21 },   /* 5^-9 */
  { G_GUINT64_CONSTANT (0xabcc77118461cefc), G_GUINT64_CONSTANT (0xfdc20d2b36ba7c3d), -19 },   /* 5^-8 */
  { G_GUINT64_CONSTANT (0xd6bf94d5e57a42bc), G_GUINT64_CONSTANT (0x3d32907604691b4c), -17 },   /* 5^-7 */
  { G_GUINT64_CONSTANT (0x8637bd05af6c69b5), G_GUINT64_CONSTANT (0xa63f9a49c2c1b10f), -14 },   /* 5^-6 */
  { G_GUINT64_CONSTANT (0xa7c5ac471b478423), G_GUINT64_CONSTANT (0x0fcf80dc33721d53), -12 },   /* 5^-5 */
  { G_GUINT64_CONSTANT (0xd1b71758e219652b), G_GUINT64_CONSTANT (0xd3c36113404ea4a8), -10 },   /* 5^-4 */
  { G_GUINT64_CONSTANT (0x83126e978d4fdf3b), G_GUINT64_CONSTANT (0x645a1cac083126e9), -7 },   /* 5^-3 */
  { G_GUINT64_CONSTANT (0xa3d70a3d70a3d70a), G_GUINT64_CONSTANT (0x3d70a3d70a3d70a3), -5 },   /* 5^-2 */
  { G_GUINT64_CONSTANT (0xcccccccccccccccc), G_GUINT64_CONSTANT (0xcccccccccccccccc), -3 },   /* 5^-1 */
  { G_GUINT64_CONSTANT (0x8000000000000000), G_GUINT64_CONSTANT (0x0000000000000000), 0 },   /* 5^0 */
  { G_GUINT64_CONSTANT (0xa000000000000000), G_GUINT64_CONSTANT (0x0000000000000000), 2 },   /* 5^1 */
  { G_GUINT64_CONSTANT (0xc800000000000000), G_GUINT64_CONSTANT (0x0000000000000000), 4 },   /* 5^2 */
  { G_GUINT64_CONSTANT (0xfa00000000000000), G_GUINT64_CONSTANT (0x0000000000000000), 6 },   /* 5^3 */
  { G_GUINT64_CONSTANT (0x9c40000000000000), G_GUINT64_CONSTANT (0x0000000000000000), 9 },   /* 5^4 */
  { G_GUINT64_CONSTANT (0xc350000000000000), G_GUINT64_CONSTANT (0x0000000000000000), 11 },   /* 5^5 */
  { G_GUINT64_CONSTANT (0xf424000000000000), G_GUINT64_CONSTANT (0x0000000000000000), 13 },   /* 5^6 */
  { G_GUINT64_CONSTANT (0x9896800000000000), G_GUINT64_CONSTANT (0x0000000000000000), 16 },   /* 5^7 */
  { G_GUINT64_CONSTANT (0xbebc200000000000), G_GUINT64_CONSTANT (0x0000000000000000), 18 },   /* 5^8 */
  { G_GUINT64_CONSTANT (0xee6b280000000000), G_GUINT64_CONSTANT (0x0000000000000000), 20 },   /* 5^9 */
  { G_GUINT64_CONSTANT (0x9502f90000000000), G_GUINT64_CONSTANT (0x0000000000000000), 23 },   /* 5^10 */
  { G_GUINT64_CONSTANT (0xba43b74000000000), G_GUINT64_CONSTANT (0x0000000000000000), 25 },   /* 5^11 */
  { G_GUINT64_CONSTANT (0xe8d4a51000000000), G_GUINT64_CONSTANT (0x0000000000000000), 27 },   /* 5^12 */
  { G_GUINT64_CONSTANT (0x9184e72a00000000), G_GUINT64_CONSTANT (0x0000000000000000), 30 },   /* 5^13 */
  { G_GUINT64_CONSTANT (0xb5e620f480000000), G_GUINT64_CONSTANT (0x0000000000000000), 32 },   /* 5^14 */
  { G_GUINT64_CONSTANT (0xe35fa931a0000000), G_GUINT64_CONSTANT (0x0000000000000000), 34 },   /* 5^15 */
  { G_GUINT64_CONSTANT (0x8e1bc9bf04000000), G_GUINT64_CONSTANT (0x0000000000000000), 37 },   /* 5^16 */
  { G_GUINT64_CONSTANT (0xb1a2bc2ec5000000), G_GUINT64_CONSTANT (0x0000000000000000), 39 },   /* 5^17 */
  { G_GUINT64_CONSTANT (0xde0b6b3a76400000), G_GUINT64_CONSTANT (0x0000000000000000), 41 },   /* 5^18 */
  { G_GUINT64_CONSTANT (0x8ac7230489e80000), G_GUINT64_CONSTANT (0x0000000000000000), 44 },   /* 5^19 */
  { G_GUINT64_CONSTANT (0xad78ebc5ac620000), G_GUINT64_CONSTANT (0x0000000000000000), 46 },   /* 5^20 */
  { G_GUINT64_CONSTANT (0xd8d726b7177a8000), G_GUINT64_CONSTANT (0x0000000000000000), 48 },   /* 5^21 */
  { G_GUINT64_CONSTANT (0x878678326eac9000), G_GUINT64_CONSTANT (0x0000000000000000), 51 },   /* 5^22 */
  { G_GUINT64_CONSTANT (0xa968163f0a57b400), G_GUINT64_CONSTANT (0x0000000000000000), 53 },   /* 5^23 */
  { G_GUINT64_CONSTANT (0xd3c21bcecceda100), G_GUINT64_CONSTANT (0x0000000000000000), 55 },   /* 5^24 */
  { G_GUINT64_CONSTANT (0x84595161401484a0), G_GUINT64_CONSTANT (0x0000000000000000), 58 },   /* 5^25 */
  { G_GUINT64_CONSTANT (0xa56fa5b99019a5c8), G_GUINT64_CONSTANT (0x0000000000000000), 60 },   /* 5^26 */
  { G_GUINT64_CONSTANT (0xcecb8f27f4200f3a), G_GUINT64_CONSTANT (0x0000000000000000), 62 },   /* 5^27 */
  { G_GUINT64_CONSTANT (0x813f3978f8940984), G_GUINT64_CONSTANT (0x4000000000000000), 65 },   /* 5^28 */
  { G_GUINT64_CONSTANT (0xa18f07d736b90be5), G_GUINT64_CONSTANT (0x5000000000000000), 67 },   /* 5^29 */
  { G_GUINT64_CONSTANT (0xc9f2c9cd04674ede), G_GUINT64_CONSTANT (0xa400000000000000), 69 },   /* 5^30 */
  { G_GUINT64_CONSTANT (0xfc6f7c4045812296), G_GUINT64_CONSTANT (0x4d00000000000000), 71 },   /* 5^31 */
  { G_GUINT64_CONSTANT (0x9dc5ada82b70b59d), G_GUINT64_CONSTANT (0xf020000000000000), 74 },   /* 5^32 */
  { G_GUINT64_CONSTANT (0xc5371912364ce305), G_GUINT64_CONSTANT (0x6c28000000000000), 76 },   /* 5^33 */
  { G_GUINT64_CONSTANT (0xf684df56c3e01bc6), G_GUINT64_CONSTANT (0xc732000000000000), 78 },   /* 5^34 */
  { G_GUINT64_CONSTANT (0x9a130b963a6c115c), G_GUINT64_CONSTANT (0x3c7f400000000000), 81 },   /* 5^35 */
  { G_GUINT64_CONSTANT (0xc097ce7bc90715b3), G_GUINT64_CONSTANT (0x4b9f100000000000), 83 },   /* 5^36 */
  { G_GUINT64_CONSTANT (0xf0bdc21abb48db20), G_GUINT64_CONSTANT (0x1e86d40000000000), 85 },   /* 5^37 */
  { G_GUINT64_CONSTANT (0x96769950b50d88f4), G_GUINT64_CONSTANT (0x1314448000000000), 88 },   /* 5^38 */
  { G_GUINT64_CONSTANT (0xbc143fa4e250eb31), G_GUINT64_CONSTANT (0x17d955a000000000), 90 },   /* 5^39 */
  { G_GUINT64_CONSTANT (0xeb194f8e1ae525fd), G_GUINT64_CONSTANT (0x5dcfab0800000000), 92 },   /* 5^40 */
  { G_GUINT64_CONSTANT (0x92efd1b8d0cf37be), G_GUINT64_CONSTANT (0x5aa1cae500000000), 95 },   /* 5^41 */
  { G_GUINT64_CONSTANT (0xb7abc627050305ad), G_GUINT64_CONSTANT (0xf14a3d9e40000000), 97 },   /* 5^42 */
  { G_GUINT64_CONSTANT (0xe596b7b0c643c719), G_GUINT64_CONSTANT (0x6d9ccd05d0000000), 99 },   /* 5^43 */
  { G_GUINT64_CONSTANT (0x8f7e32ce7bea5c6f), G_GUINT64_CONSTANT (0xe4820023a2000000), 102 },   /* 5^44 */
  { G_GUINT64_CONSTANT (0xb35dbf821ae4f38b), G_GUINT64_CONSTANT (0xdda2802c8a800000), 104 },   /* 5^45 */
  { G_GUINT64_CONSTANT (0xe0352f62a19e306e), G_GUINT64_CONSTANT (0xd50b2037ad200000), 106 },   /* 5^46 */
  { G_GUINT64_CONSTANT (0x8c213d9da502de45), G_GUINT64_CONSTANT (0x4526f422cc340000), 109 },   /* 5^47 */
  { G_GUINT64_CONSTANT (0xaf298d050e4395d6), G_GUINT64_CONSTANT (0x9670b12b7f410000), 111 },   /* 5^48 */
  { G_GUINT64_CONSTANT (0xdaf3f04651d47b4c), G_GUINT64_CONSTANT (0x3c0cdd765f114000), 113 },   /* 5^49 */
  { G_GUINT64_CONSTANT (0x88d8762bf324cd0f), G_GUINT64_CONSTANT (0xa5880a69fb6ac800), 116 },   /* 5^50 */
  { G_GUINT64_CONSTANT (0xab0e93b6efee0053), G_GUINT64_CONSTANT (0x8eea0d047a457a00), 118 },   /* 5^51 */
  { G_GUINT64_CONSTANT (0xd5d238a4abe98068), G_GUINT64_CONSTANT (0x72a4904598d6d880), 120 },   /* 5^52 */
  { G_GUINT64_CONSTANT (0x85a36366eb71f041), G_GUINT64_CONSTANT (0x47a6da2b7f864750), 123 },   /* 5^53 */
  { G_GUINT64_CONSTANT (0xa70c3c40a64e6c51), G_GUINT64_CONSTANT (0x999090b65f67d924), 125 },   /* 5^54 */
  { G_GUINT64_CONSTANT (0xd0cf4b50cfe20765), G_GUINT64_CONSTANT (0xfff4b4e3f741cf6d), 127 },   /* 5^55 */
  { G_GUINT64_CONSTANT (0x82818f1281ed449f), G_GUINT64_CONSTANT (0xbff8f10e7a8921a4), 130 },   /* 5^56 */
  { G_GUINT64_CONSTANT (0xa321f2d7226895c7), G_GUINT64_CONSTANT (0xaff72d52192b6a0d), 132 },   /* 5^57 */
  { G_GUINT64_CONSTANT (0xcbea6f8ceb02bb39), G_GUINT64_CONSTANT (0x9bf4f8a69f764490), 134 },   /* 5^58 */
  { G_GUINT64_CONSTANT (0xfee50b7025c36a08), G_GUINT64_CONSTANT (0x02f236d04753d5b4), 136 },   /* 5^59 */
  { G_GUINT64_CONSTANT (0x9f4f2726179a2245), G_GUINT64_CONSTANT (0x01d762422c946590), 139 },   /* 5^60 */
  { G_GUINT64_CONSTANT (0xc722f0ef9d80aad6), G_GUINT64_CONSTANT (0x424d3ad2b7b97ef5), 141 },   /* 5^61 */
  { G_GUINT64_CONSTANT (0xf8ebad2b84e0d58b), G_GUINT64_CONSTANT (0xd2e0898765a7deb2), 143 },   /* 5^62 */
  { G_GUINT64_CONSTANT (0x9b934c3b330c8577), G_GUINT64_CONSTANT (0x63cc55f49f88eb2f), 146 },   /* 5^63 */
  { G_GUINT64_CONSTANT (0xc2781f49ffcfa6d5), G_GUINT64_CONSTANT (0x3cbf6b71c76b25fb), 148 },   /* 5^64 */
};

/* The full product of two 64-bit values without compiler extensions: the
 * high half, the low in *lo. Kept compiled (and tested) everywhere. */
guint64
_sq_mul_64_portable (guint64  a,
                     guint64  b,
                     guint64 *lo)
{
  guint64 a0 = (guint32) a, a1 = a >> 32, b0 = (guint32) b, b1 = b >> 32;
  guint64 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  guint64 mid = (p00 >> 32) + (guint32) p01 + (guint32) p10;

  *lo = (mid << 32) | (guint32) p00;
  return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/* mant · 10^exp10, correctly rounded, or FALSE when strtod has to decide.
 * Clinger: a mantissa of at most 53 bits and a power of ten a double holds
 * exactly make one correctly rounded operation of two exact values; else
 * the 128-bit product. */
static gboolean
scale_pow10 (guint64  mant,
             int      exp10,
             double  *out)
{
  if (mant <= (G_GUINT64_CONSTANT (1) << 53) && exp10 >= -22 && exp10 <= 22)
    {
      double v = (double) mant;

      *out = exp10 < 0 ? v / _sq_pow10_exact[-exp10] : v * _sq_pow10_exact[exp10];
      return TRUE;
    }
  if (mant == 0)
    {
      *out = 0.0;
      return TRUE;
    }
  if (exp10 < SQ_POW5_MIN || exp10 > SQ_POW5_MAX)
    return FALSE;
  return _sq_scale_128 (mant, exp10, out);
}

/* Any decimal number, bit-identical to strtod in the C locale: up to 19
 * significant digits by scale_pow10; more, when the 19 first ones and the
 * next value up round alike (the exact value lies between them); anything
 * else goes to g_ascii_strtod. No allocation, no locale. */
static const char *
scan_double_general (const char *tok,
                     const char *end,
                     double     *out)
{
  const char *p = tok;
  gsize len;
  gboolean neg = FALSE, any_digit = FALSE;
  guint64 mant = 0;
  int sig = 0, exp10 = 0;
  gboolean truncated = FALSE;
  double v, up;

  if (p >= end)
    return NULL;
  if (*p == '+' || *p == '-')
    neg = *p++ == '-';
  while (p < end && *p == '0')
    {
      p++;
      any_digit = TRUE;
    }
  for (; p < end && g_ascii_isdigit (*p); p++)
    {
      any_digit = TRUE;
      if (sig < 19)
        mant = mant * 10 + (guint64) (*p - '0'), sig++;
      else
        {
          exp10++;
          truncated |= *p != '0';
        }
    }
  if (p < end && *p == '.')
    {
      p++;
      for (; p < end && g_ascii_isdigit (*p); p++)
        {
          any_digit = TRUE;
          if (mant == 0 && *p == '0')
            exp10--;                  /* leading zeros of the fraction */
          else if (sig < 19)
            {
              mant = mant * 10 + (guint64) (*p - '0');
              sig++;
              exp10--;
            }
          else
            truncated |= *p != '0';
        }
    }
  if (!any_digit)
    return NULL;
  if (p < end && (*p == 'e' || *p == 'E'))
    {
      gboolean eneg = FALSE;
      int e = 0;

      p++;
      if (p < end && (*p == '+' || *p == '-'))
        eneg = *p++ == '-';
      if (p >= end || !g_ascii_isdigit (*p))
        return NULL;
      for (; p < end && g_ascii_isdigit (*p); p++)
        if (e < 100000)
          e = e * 10 + (*p - '0');
      exp10 += eneg ? -e : e;
    }
  len = p - tok;

  if (!truncated && scale_pow10 (mant, exp10, &v))
    ;
  else if (truncated && scale_pow10 (mant, exp10, &v) && scale_pow10 (mant + 1, exp10, &up)
           && memcmp (&v, &up, sizeof v) == 0)
    ;       /* rounding is monotonic: what lies between rounds alike */
  else
    {
      char buf[128];
      char *copy = len < sizeof buf ? buf : g_malloc (len + 1);
      char *stop = NULL;

      memcpy (copy, tok, len);
      copy[len] = '\0';
      v = g_ascii_strtod (copy, &stop);
      v = fabs (v);
      if (copy != buf)
        g_free (copy);
    }
  if (!isfinite (v))
    return NULL;
  *out = neg ? -v : v;
  return p;
}

/* Appends the run of digits at p to *mant, which holds *n digits: returns
 * where the run ends, or NULL when it would make more than 19 digits in
 * all (19 always fit in 64 bits). Eight at a time while `limit` (the end of
 * the readable bytes) allows; digits past `end` are never taken. */
static inline const char *
take_run (const char *p,
          const char *end,
          const char *limit,
          guint64    *mant,
          int        *n)
{
#ifdef SQ_SWAR_DIGITS
  while (limit - p >= 8)
    {
      guint64 w;
      int k;

      memcpy (&w, p, sizeof w);
      k = _sq_lead_digits (w);
      if (k > end - p)
        k = (int) (end - p);
      if (k == 0)
        return p;
      if (*n + k > 19)
        return NULL;
      *mant = *mant * _sq_pow10_u64[k] + _sq_digits_value (w, k);
      *n += k;
      p += k;
      if (k < 8)
        return p;
    }
#endif
  while (p < end && (guint) (*p - '0') < 10)
    {
      if (*n == 19)
        return NULL;
      *mant = *mant * 10 + (guint) (*p++ - '0');
      (*n)++;
    }
  return p;
}

/* Decimal text to the nearest double, bit-identical to strtod in the C
 * locale. The common shape (sign, at most 19 digits around an optional
 * point, an optional short exponent) is read here in one pass, eight digits
 * at a time where `limit` (the end of the readable bytes, at or after
 * `end`) allows, and scaled by scale_pow10; anything else (more digits,
 * long exponents, the rare product too near a midpoint) by
 * scan_double_general. */
const char *
_sq_scan_double_in (const char *tok,
                    const char *end,
                    const char *limit,
                    double     *out)
{
  const char *p = tok, *q;
  gboolean neg = FALSE;
  guint64 mant = 0;
  int n = 0, exp10 = 0;
  double v;

  if ((q = _sq_scan_double_short (tok, end, limit, out)) != NULL)
    return q;
  if (p < end && (*p == '+' || *p == '-'))
    neg = *p++ == '-';
  if ((q = take_run (p, end, limit, &mant, &n)) == NULL)
    return scan_double_general (tok, end, out);
  p = q;
  if (p < end && *p == '.')
    {
      if ((q = take_run (p + 1, end, limit, &mant, &n)) == NULL)
        return scan_double_general (tok, end, out);
      exp10 = -(int) (q - (p + 1));
      p = q;
    }
  if (n == 0)
    return NULL;                /* no digit: ".", "-", "e5", "inf" … */
  if (p < end && (*p == 'e' || *p == 'E'))
    {
      const char *e = p + 1;
      gboolean eneg = FALSE;
      int x = 0, nx = 0;

      if (e < end && (*e == '+' || *e == '-'))
        eneg = *e++ == '-';
      for (; e < end && (guint) (*e - '0') < 10 && nx < 5; e++, nx++)
        x = x * 10 + (*e - '0');
      /* no exponent digit, or so many that the general path counts them */
      if (nx == 0 || nx == 5)
        return scan_double_general (tok, end, out);
      exp10 += eneg ? -x : x;
      p = e;
    }
  if (!scale_pow10 (mant, exp10, &v))
    return scan_double_general (tok, end, out);
  *out = neg ? -v : v;
  return p;
}

const char *
_sq_scan_double (const char *tok,
                 const char *end,
                 double     *out)
{
  return _sq_scan_double_in (tok, end, end, out);
}

gboolean
_sq_parse_double (const char *tok,
                  gsize       len,
                  double     *out)
{
  return len > 0 && _sq_scan_double (tok, tok + len, out) == tok + len;
}

gboolean
_sq_parse_double_in (const char *tok,
                     gsize       len,
                     const char *limit,
                     double     *out)
{
  return len > 0 && _sq_scan_double_in (tok, tok + len, limit, out) == tok + len;
}

static const char digit_pairs[] =
  "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
  "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
  "8081828384858687888990919293949596979899";


/* Eight decimal digits of n (below 10^8, zeros in front) at o, without a
 * division per digit: the two halves of four digits, then their pairs,
 * then single digits are split in the lanes of one 64-bit word, first
 * digit in the lowest byte. n / 100 is (n · 10486) >> 20 below
 * 10^4 and n / 10 is (n · 103) >> 10 below 100; no lane carries into the
 * next. */
static inline guint64
digits_word (guint32 n)
{
  guint64 x = (n / 10000) | ((guint64) (n % 10000) << 32);
  guint64 q = ((x * 10486) >> 20) & G_GUINT64_CONSTANT (0x0000007f0000007f);

  x = q | ((x - q * 100) << 16);
  q = ((x * 103) >> 10) & G_GUINT64_CONSTANT (0x000f000f000f000f);
  x = q | ((x - q * 10) << 8);
  return x | G_GUINT64_CONSTANT (0x3030303030303030);
}

static inline void
put_8_digits (char    *o,
              guint32  n)
{
  guint64 x = digits_word (n);

  memcpy (o, &x, sizeof x);
}

/* Exactly `w` digits of v (v < 10^w, 1 <= w <= 17; zeros in front) at o,
 * in at most three stores of words built in registers, first to last
 * (no digit is written twice or moved); up to eight bytes after
 * them may be overwritten. */
static inline void
put_width (char    *o,
           guint64  v,
           int      w)
{
  guint64 x;

  if (w > 16)
    {
      guint64 top = v / G_GUINT64_CONSTANT (10000000000000000);

      *o++ = (char) ('0' + top);
      v -= top * G_GUINT64_CONSTANT (10000000000000000);
      w = 16;
    }
  if (w > 8)
    {
      guint64 hi = v / 100000000;

      x = digits_word ((guint32) hi) >> (8 * (16 - w));
      memcpy (o, &x, sizeof x);
      x = digits_word ((guint32) (v - hi * 100000000));
      memcpy (o + w - 8, &x, sizeof x);
      return;
    }
  x = digits_word ((guint32) v) >> (8 * (8 - w));
  memcpy (o, &x, sizeof x);
}

/* Writes `v`'s decimal digits ending just before `end`, at least `width` of
 * them (zeros in front); returns where they start. */
static inline char *
put_digits (char    *end,
            guint64  v,
            int      width)
{
  char *q = end;
  guint32 w;

  while (v >= 100000000)
    {
      guint64 hi = v / 100000000;

      q -= 8;
      put_8_digits (q, (guint32) (v - hi * 100000000));
      v = hi;
    }
  w = (guint32) v;
  while (w >= 100)
    {
      guint r = w % 100;
      w /= 100;
      q -= 2;
      memcpy (q, digit_pairs + 2 * r, 2);
    }
  if (w >= 10)
    {
      q -= 2;
      memcpy (q, digit_pairs + 2 * w, 2);
    }
  else
    *--q = (char) ('0' + w);
  if (end - q < width)
    {
      static const char zeros[24] = { '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0',
                                      '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0' };

      /* the zeros in front in one fixed-size copy, not one by one (the
       * callers that pad keep 24 bytes of room before the digits) */
      if (width - (end - q) <= 24)
        {
          memcpy (q - 24, zeros, sizeof zeros);
          q = end - width;
        }
      while (end - q < width)
        *--q = '0';
    }
  return q;
}

/* Room for `n` more bytes (and the NUL) at the end of s; where they start */
static inline char *
string_room (GString *s,
             gsize    n)
{
  if (G_UNLIKELY (s->allocated_len - s->len <= n))
    {
      gsize len = s->len;
      g_string_set_size (s, len + n + 1);
      g_string_truncate (s, len);
    }
  return s->str + s->len;
}

/* Appends the text right-aligned at `end` (up to 48 bytes, with 48 bytes
 * readable from `q`): a fixed-size copy into room made beforehand. */
static inline void
append_tail (GString    *s,
             const char *q,
             const char *end)
{
  gsize n = end - q;

  memcpy (string_room (s, 48), q, 48);
  s->len += n;
  s->str[s->len] = '\0';
}

static void
append_scaled (GString *s,
               gboolean neg,
               guint64  digits,
               int      decimals,
               int      min_decimals)
{
  char buf[128];      /* 48 readable bytes from any start up to `end` */
  char *end = buf + 80, *q = end;

  if (decimals > 0 && decimals < 20)
    {
      int n_int;

      /* all digits at once (no division by a power of ten), then the
       * integer part moved one byte to the left for the point */
      q = put_digits (end, digits, decimals + 1);
      n_int = (int) (end - q) - decimals;
      if (n_int <= 8)
        {
          /* fixed-size moves, no call: the first eight bytes one to the
           * left, then the decimals they covered put back (the buffer has
           * room past `end`) */
          guint64 head, tail;

          memcpy (&head, q, sizeof head);
          memcpy (&tail, q + n_int, sizeof tail);
          memcpy (q - 1, &head, sizeof head);
          memcpy (q + n_int, &tail, sizeof tail);
        }
      else
        for (int i = 0; i < n_int; i++)
          q[i - 1] = q[i];
      q--;
      q[n_int] = '.';
      /* trailing zeros go, but never below min_decimals, so that the text
       * reads back to a number that is written the same way again */
      while (decimals > min_decimals && end[-1] == '0')
        {
          end--;
          decimals--;
        }
      if (decimals == 0)
        end--;            /* the point too */
    }
  else
    {
      while (decimals > min_decimals && digits % 10 == 0)
        {
          digits /= 10;
          decimals--;
        }
      if (decimals > 0)
        {
          /* more decimals than a 64-bit integer has digits */
          q = put_digits (q, digits, decimals);
          *--q = '.';
          *--q = '0';
        }
      else
        q = put_digits (q, digits, 1);
    }
  if (neg)
    *--q = '-';
  append_tail (s, q, end);
}

/* floor (log10 (a)) or one less, never more, for a normal positive a: from
 * the binary exponent alone (a in [2^(b-1), 2^b) puts log10 (a) in
 * [(b-1) log10 2, b log10 2), an interval narrower than 1) */
static inline int
decimal_exponent_floor (double a)
{
  guint64 bits;
  int b;

  memcpy (&bits, &a, sizeof bits);
  b = (int) ((bits >> 52) & 0x7ff) - 1022;
  /* (b - 1) · log10 (2) rounded down, in integers: 78913 / 2^18 is log10 (2)
   * close enough for every exponent a double has (checked against the
   * floating-point form for all of them); the offset keeps the shifted
   * value positive */
  return (((b - 1) * 78913 + 400 * (1 << 18)) >> 18) - 400;
}

/* floor (x) for 0 <= x < 2^63: the signed conversion truncates, in one
 * instruction (floor is a library call where it is not one) */
static inline double
floor_pos (double x)
{
  return (double) (gint64) x;
}

/* How many decimal digits n has (1 for 0): from its bit length, then one
 * comparison */
static inline int
count_digits (guint32 n)
{
  static const guint32 pow10_32[10] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
                                        1000000000 };
  guint32 m = n | 1;
  int t = ((32 - __builtin_clz (m)) * 1233) >> 12;

  return t + 1 - (m < pow10_32[t]);
}

/* Appends a whole number in decimal, as "%" G_GINT64_FORMAT would: below
 * 10^8, the usual case (key times, counts), its digits stored straight at
 * the end of s (put_width) */
void
_sq_append_int64 (GString *s,
                  gint64   v)
{
  char buf[112];
  char *end = buf + 56, *q;
  guint64 u = v < 0 ? -(guint64) v : (guint64) v;

  if (u < 100000000)
    {
      char *o = string_room (s, 24), *start = o;
      int n = count_digits ((guint32) u);

      if (v < 0)
        *o++ = '-';
      put_width (o, u, n);
      o += n;
      *o = '\0';
      s->len += (gsize) (o - start);
      return;
    }
  q = put_digits (end, u, 1);
  if (v < 0)
    *--q = '-';
  append_tail (s, q, end);
}

static gboolean round_digits_exact (double   a,
                                    int      k,
                                    guint64 *out);

/* v with `decimals` decimals, rounded exactly as printf rounds (a · 10^d
 * within 64 bits): 1 appended; 0 not, `only_if_exact` and the text would
 * not read back as v; -1 not, out of that range. */
static int
append_rounded (GString  *s,
                double    v,
                int       decimals,
                gboolean  only_if_exact)
{
  guint64 digits;
  double back;

  if (!round_digits_exact (fabs (v), decimals, &digits))
    return -1;
  if (only_if_exact && (!scale_pow10 (digits, -decimals, &back) || back != fabs (v)))
    return 0;
  append_scaled (s, signbit (v) != 0, digits, decimals, decimals);
  return 1;
}

/* `decimals` fixed decimals when that text reads back as exactly `v`
 * (Clinger: an integer below 2^53 over an exact power of ten is correctly
 * rounded, so the check is one division); otherwise nine significant
 * digits, which carry any 32-bit float exactly, or `decimals` decimals
 * correctly rounded when those are more. Same text as "%.*f" / "%.9g"
 * would give, without printf. */
static gboolean
append_number (GString  *s,
               double    v,
               int       decimals,
               gboolean  exact_only)
{
  double a = fabs (v);

  if (decimals >= 0 && decimals <= 22 && a * _sq_pow10_exact[decimals] < 4503599627370496.0)
    {
      double r = floor_pos (a * _sq_pow10_exact[decimals] + 0.5);
      if (r / _sq_pow10_exact[decimals] == a)
        {
          append_scaled (s, signbit (v) != 0, (guint64) r, decimals, decimals);
          return TRUE;
        }
    }
  else if (decimals >= 0 && decimals <= 22 && a * _sq_pow10_exact[decimals] < 9007199254740992.0)
    {
      /* from 2^52, where the product's rounding may pick another text that
       * reads back too: rounded exactly, as printf does */
      if (append_rounded (s, v, decimals, TRUE) > 0)
        return TRUE;
    }
  if (isfinite (v) && a >= 1e-13 && a < 1e30)
    {
      int e = decimal_exponent_floor (a);
      int d = 8 - e;
      double r = 0;

      /* a third try when the exponent guess was one low and rounding carries */
      for (guint tries = 0; tries < 3; tries++)
        {
          /* below 1e10 here (a >= 1e-13, a < 1e30, d from a's exponent) */
          r = floor_pos (d >= 0 ? a * _sq_pow10_exact[MIN (d, 22)] + 0.5 : a / _sq_pow10_exact[MIN (-d, 22)] + 0.5);
          if (r < 1e9)
            break;
          d--;          /* rounding carried into a tenth digit */
        }
      if (d < decimals && decimals < 20 && a < 4503599627370496.0)
        {
          /* the format's decimals hold more than nine digits: the value
           * rounded to them, as "%.*f" would write it. The integer part and
           * the fraction apart (both exact), so that any number of digits
           * before the point fits */
          double ip = floor_pos (a), f = a - ip;
          guint64 frac = 0;

          if (f == 0 || round_digits_exact (f, decimals, &frac))
            {
              gsize at = s->len;
              double back;

              if (frac >= _sq_pow10_u64[decimals])
                {
                  ip += 1;      /* rounded up to the next integer */
                  frac -= _sq_pow10_u64[decimals];
                }
              if (signbit (v))
                g_string_append_c (s, '-');
              _sq_append_int64 (s, (gint64) ip);
              if (decimals > 0)
                {
                  char buf[64];
                  char *end = buf + sizeof buf;

                  g_string_append_c (s, '.');
                  g_string_append_len (s, put_digits (end, frac, decimals), decimals);
                }
              if (exact_only && (!_sq_parse_double (s->str + at, s->len - at, &back) || back != v))
                {
                  g_string_truncate (s, at);
                  return FALSE;
                }
              return TRUE;
            }
        }
      else if (d < decimals)
        {
          /* (no fraction from 2^52 on) */
          int appended = append_rounded (s, v, decimals, exact_only);

          if (appended >= 0)
            return appended > 0;
        }
      /* the text's value is r · 10^-d: one exact operation of two exact
       * values, as the parser would compute it */
      if (exact_only && d >= -22 && d <= 22
          && (d >= 0 ? r / _sq_pow10_exact[d] : r * _sq_pow10_exact[-d]) != a)
        return FALSE;
      if (d >= 0 && d <= 22)
        {
          int pad = 0;

          /* zeros up to the format's decimals: in the digits while they
           * fit in 64 bits, written out beyond that */
          for (; d < decimals; d++)
            {
              if (r >= 1e17)
                {
                  pad = decimals - d;
                  break;
                }
              r *= 10;
            }
          append_scaled (s, signbit (v) != 0, (guint64) r, d, MAX (decimals - pad, 0));
          for (int z = 0; z < pad; z++)
            g_string_append_c (s, '0');
          return TRUE;
        }
      if (d < 0 && d >= -22)
        {
          /* nine digits, then zeros up to the point, then the format's decimals */
          append_scaled (s, signbit (v) != 0, (guint64) r, 0, 0);
          for (int z = 0; z < -d; z++)
            g_string_append_c (s, '0');
          if (decimals > 0)
            {
              g_string_append_c (s, '.');
              for (int z = 0; z < decimals; z++)
                g_string_append_c (s, '0');
            }
          return TRUE;
        }
    }
  {
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    double back;

    g_ascii_formatd (buf, sizeof buf, "%.9g", v);
    if (exact_only && (!_sq_parse_double (buf, strlen (buf), &back) || memcmp (&back, &v, sizeof v) != 0))
      return FALSE;
    g_string_append (s, buf);
  }
  return TRUE;
}

void
_sq_append_number (GString *s,
                   double   v,
                   int      decimals)
{
  append_number (s, v, decimals, FALSE);
}

/* The same text, appended only when it reads back as exactly v (bit for
 * bit); FALSE, and nothing appended, otherwise. */
gboolean
_sq_append_number_exact (GString *s,
                         double   v,
                         int      decimals)
{
  return append_number (s, v, decimals, TRUE);
}

/* "%.*f" exactly as printf writes it (the exact value rounded, half to
 * even on a tie): without printf while the value times 10^decimals fits
 * in 64 bits, through g_ascii_formatd otherwise (zero and subnormals
 * too). `decimals` 0 to 20. */
void
_sq_append_fixed (GString *s,
                  double   v,
                  int      decimals)
{
  char buf[400], format[8];

  if (isfinite (v) && append_rounded (s, v, decimals, FALSE) > 0)
    return;
  g_snprintf (format, sizeof format, "%%.%df", CLAMP (decimals, 0, 20));
  g_string_append (s, g_ascii_formatd (buf, sizeof buf, format, v));
}

/* 5^0 … 5^27: all below 2^63 */
static const guint64 pow5_u64[28] = {
  G_GUINT64_CONSTANT (1), G_GUINT64_CONSTANT (5), G_GUINT64_CONSTANT (25), G_GUINT64_CONSTANT (125), G_GUINT64_CONSTANT (625), G_GUINT64_CONSTANT (3125), G_GUINT64_CONSTANT (15625), G_GUINT64_CONSTANT (78125), G_GUINT64_CONSTANT (390625), G_GUINT64_CONSTANT (1953125), G_GUINT64_CONSTANT (9765625), G_GUINT64_CONSTANT (48828125), G_GUINT64_CONSTANT (244140625), G_GUINT64_CONSTANT (1220703125), G_GUINT64_CONSTANT (6103515625), G_GUINT64_CONSTANT (30517578125), G_GUINT64_CONSTANT (152587890625), G_GUINT64_CONSTANT (762939453125), G_GUINT64_CONSTANT (3814697265625), G_GUINT64_CONSTANT (19073486328125), G_GUINT64_CONSTANT (95367431640625), G_GUINT64_CONSTANT (476837158203125), G_GUINT64_CONSTANT (2384185791015625), G_GUINT64_CONSTANT (11920928955078125), G_GUINT64_CONSTANT (59604644775390625), G_GUINT64_CONSTANT (298023223876953125), G_GUINT64_CONSTANT (1490116119384765625), G_GUINT64_CONSTANT (7450580596923828125)
};

/* a · 10^k (a > 0 normal) rounded to an integer as printf rounds the exact
 * value (half to even on a tie), computed exactly: a = m · 2^e with m of 53
 * bits, so a · 10^k = m · 5^k · 2^(e + k), where m · 5^k fits in 128 bits for
 * 0 <= k <= 27 and the power of two is a shift that leaves the remainder
 * to compare with one half. FALSE outside that range or when the result
 * does not fit in 64 bits. */
static gboolean
round_digits_exact (double   a,
                    int      k,
                    guint64 *out)
{
  guint64 bits, m, hi, lo, q, rem_hi, rem_lo, half_hi, half_lo;
  int e, s;

  if (k < 0 || k > 27)
    return FALSE;
  memcpy (&bits, &a, sizeof bits);
  e = (int) ((bits >> 52) & 0x7ff);
  if (e == 0 || e == 0x7ff)
    return FALSE;
  m = (bits & ((G_GUINT64_CONSTANT (1) << 52) - 1)) | (G_GUINT64_CONSTANT (1) << 52);
  e -= 1075;
  hi = _sq_mul_64 (m, pow5_u64[k], &lo);
  s = -(e + k);         /* a · 10^k = hi:lo · 2^-s */
  if (s <= 0)
    {
      if (hi != 0 || s <= -11 || (s < 0 && (lo >> (64 + s)) != 0))
        return FALSE;
      *out = lo << -s;
      return TRUE;
    }
  if (s >= 128)
    return FALSE;
  if (s < 64)
    {
      if ((hi >> s) != 0)
        return FALSE;
      q = (hi << (64 - s)) | (lo >> s);
      rem_hi = 0;
      rem_lo = lo & ((G_GUINT64_CONSTANT (1) << s) - 1);
      half_hi = 0;
      half_lo = G_GUINT64_CONSTANT (1) << (s - 1);
    }
  else
    {
      q = hi >> (s - 64);
      rem_hi = hi & ((G_GUINT64_CONSTANT (1) << (s - 64)) - 1);
      rem_lo = lo;
      half_hi = s == 64 ? 0 : G_GUINT64_CONSTANT (1) << (s - 65);
      half_lo = s == 64 ? G_GUINT64_CONSTANT (1) << 63 : 0;
    }
  if (rem_hi > half_hi || (rem_hi == half_hi && rem_lo > half_lo))
    q++;
  else if (rem_hi == half_hi && rem_lo == half_lo)
    q += q & 1;
  *out = q;
  return TRUE;
}

/* a · 10^k rounded to an integer as printf rounds the exact value: exactly
 * when round_digits_exact can, else in extended precision where there is
 * one; FALSE on an inexact tie or out of range */
static gboolean
round_digits (double   a,
              int      k,
              guint64 *out)
{
#ifdef SQ_HAVE_EXTENDED
  long double x, f;
  guint64 d;
#endif

  if (round_digits_exact (a, k, out))
    return TRUE;
#ifndef SQ_HAVE_EXTENDED
  return FALSE;
#else
  if (k > SQ_POW10_LD_MAX || k < -SQ_POW10_LD_MAX)
    return FALSE;
  x = k >= 0 ? (long double) a * pow10_ld[k] : (long double) a / pow10_ld[-k];
  if (!(x < 1.8e19L))
    return FALSE;
  d = (guint64) x;
  f = x - (long double) d;
  if (f == 0.5L)
    {
      /* a tie, if the product was exact (a's significand times 5^k fits in
       * 64 bits): printf rounds it half to even; else strtod decides */
      guint64 bits, m, five = 1;
      int width;

      if (k < 0)
        return FALSE;
      memcpy (&bits, &a, sizeof bits);
      m = (bits & ((G_GUINT64_CONSTANT (1) << 52) - 1)) | (((bits >> 52) & 0x7ff) ? G_GUINT64_CONSTANT (1) << 52 : 0);
      if (m == 0)
        return FALSE;
      m >>= __builtin_ctzll (m);
      for (int i = 0; i < k; i++)
        five *= 5;
      width = (64 - __builtin_clzll (m)) + (64 - __builtin_clzll (five));
      if (width > 64)
        return FALSE;
      *out = d + (d & 1);
      return TRUE;
    }
  *out = d + (f > 0.5L);
  return TRUE;
#endif
}

/* "%.*g" of a finite nonzero double with `prec` (15..17) significant digits,
 * without printf: returns its length, or 0 ("") when that text would not
 * read back as v, or -1 when the digits are not certain (an inexact
 * rounding tie, or a power of ten beyond what the extended format holds
 * exactly). */
static int emit_g (char    *buf,
                   gboolean neg,
                   guint64  d,
                   int      prec,
                   int      e);

/* d (of nd digits) without its zeros at the end, which *nd then counts
 * down for (one digit stays) */
static inline guint64
drop_trailing_zeros (guint64  d,
                     int     *nd)
{
  while (*nd > 1 && d % 10 == 0)
    {
      d /= 10;
      (*nd)--;
    }
  return d;
}

static int
format_g (char   *buf,
          double  v,
          int     prec,
          int     e)
{
  double a = fabs (v);
  guint64 lo = 1, hi;
  guint64 d = 0;

  for (int i = 1; i < prec; i++)
    lo *= 10;
  hi = lo * 10;
  /* e: the exponent of v rounded to prec digits. The first guess (from
   * log10) may be one off; d == lo can also be a value just below a power
   * of ten seen with one digit too few, so the exponent below is tried */
  for (guint tries = 0; tries < 4; tries++)
    {
      if (!round_digits (a, prec - 1 - e, &d))
        return -1;
      if (d >= hi)
        e++;
      else if (d < lo)
        e--;
      else if (d == lo)
        {
          guint64 below;

          if (!round_digits (a, prec - e, &below))
            return -1;
          if (below < hi)
            {
              d = below;
              e--;
            }
          break;
        }
      else
        break;
    }
  if (d < lo || d >= hi)
    return -1;
  /* does the text read back as v? Its value is d · 10^(e - prec + 1),
   * computed as the parser would (Clinger, or the extended path).
   * Seventeen significant digits, correctly rounded, always read back as
   * the double they came from: no need to check */
  if (prec < 17)
    {
      int sc = e - prec + 1;
      double back;

      if (!scale_pow10 (d, sc, &back))
        return -1;
      if (back != a)
        {
          *buf = '\0';       /* exact digits, but not the shortest: try more */
          return 0;
        }
    }
  return emit_g (buf, signbit (v) != 0, d, prec, e);
}

/* The text "%.*g" gives for `prec` significant digits whose digits,
 * rounded, are `d` (prec of them) and whose first digit stands for 10^e:
 * trailing zeros dropped, the fixed form for -4 <= e < prec, else the
 * exponent form. Returns its length. */
static int
emit_g (char    *buf,
        gboolean neg,
        guint64  d,
        int      prec,
        int      e)
{
  char digits[24];
  char *o = buf;
  int nd;

  /* the significant digits, trailing zeros dropped */
  nd = prec;
  d = drop_trailing_zeros (d, &nd);
  if (neg)
    *o++ = '-';
  /* the usual forms are stored in place, piece by piece (put_width) */
  if (e < 0 && e >= -4)
    {
      memcpy (o, "0.000000", 8);
      o += 2 + (-e - 1);
      put_width (o, d, nd);
      o += nd;
      *o = '\0';
      return (int) (o - buf);
    }
  if (e >= 0 && e < prec)
    {
      if (nd <= e + 1)
        {
          /* a whole number: the digits, then zeros up to the point */
          put_width (o, d, nd);
          memcpy (o + nd, "0000000000000000", 16);
          o += e + 1;
        }
      else
        {
          guint64 p = _sq_pow10_u64[nd - 1 - e], ip = d / p;

          put_width (o, ip, e + 1);
          o[e + 1] = '.';
          put_width (o + e + 2, d - ip * p, nd - 1 - e);
          o += nd + 1;
        }
      *o = '\0';
      return (int) (o - buf);
    }
  /* the exponent form */
  put_digits (digits + nd, d, nd);
  {
    int x = e < 0 ? -e : e;

    *o++ = digits[0];
    if (nd > 1)
      {
        *o++ = '.';
        memcpy (o, digits + 1, nd - 1);
        o += nd - 1;
      }
    *o++ = 'e';
    *o++ = e < 0 ? '-' : '+';
    if (x >= 100)
      *o++ = (char) ('0' + x / 100);
    *o++ = (char) ('0' + x / 10 % 10);
    *o++ = (char) ('0' + x % 10);
  }
  *o = '\0';
  return (int) (o - buf);
}

/* Does the decimal c (an integer in the units of x · 10^k = q + frac / 2^s)
 * read back as x? It does when it lies inside x's rounding interval: less
 * than half an ulp away (a quarter below a power of two, where the next
 * double down is nearer), or exactly half when x's significand is even,
 * as the parser rounds ties. Half an ulp is 5^k / 2^(s+1) in these units,
 * between 0.55 and 11: c more than 12 away never reads back. Closer, in
 * units of 2^-(s+2) (exact in 64 bits for s <= 56): the distance is
 * (c - q) · 2^(s+2) - 4 frac, half an ulp is 2 · 5^k. */
static inline gboolean
reads_back (guint64  c,
            guint64  q,
            guint64  frac,
            int      s,
            guint64  five_k,
            gboolean narrow_below,
            gboolean even)
{
  gint64 delta = (gint64) (c - q), dist;
  guint64 half = five_k << 1;

  if (delta > 12 || delta < -12)
    return FALSE;
  dist = (gint64) ((guint64) delta << (s + 2)) - (gint64) (frac << 2);
  if (dist < 0)
    {
      dist = -dist;
      if (narrow_below)
        half = five_k;
    }
  return (guint64) dist < half || ((guint64) dist == half && even);
}

/* The digits of "the shortest of %.15g, %.16g and %.17g that reads back",
 * in one pass: x · 10^k is computed exactly once, as the integer q with
 * 17 digits and a binary fraction; the three roundings all come from q
 * and the fraction (exactly, ties to even as printf rounds), and whether
 * each reads back is decided on the same integers (reads_back) instead of
 * by reading it back (three passes of rounding and reading back
 * would cost far more). For about 1e-9 <= a < 1e16; FALSE
 * outside that, where format_g's passes serve. *d gets `*prec` digits,
 * the first one for 10^*e. */
/* q with its last digits, worth `unit` (10 or 100), rounded off as printf
 * rounds x · 10^k = q + frac / 2^s (half to even; frac, not zero, puts it
 * past a half): in units of `unit` */
static inline guint64
round_off (guint64 q,
           guint64 frac,
           guint64 unit)
{
  guint64 t = q / unit, r = q - t * unit;

  return t + (r > unit / 2 || (r == unit / 2 && (frac != 0 || (t & 1))));
}

static gboolean
shortest_one_pass (double   a,
                   guint64 *d,
                   int     *prec,
                   int     *e)
{
  guint64 bits, m, hi, lo, q, frac, c;
  int e2, x10, k, s;
  gboolean narrow_below, even;

  memcpy (&bits, &a, sizeof bits);
  e2 = (int) ((bits >> 52) & 0x7ff);
  if (e2 <= 1 || e2 == 0x7ff)
    return FALSE;
  m = (bits & ((G_GUINT64_CONSTANT (1) << 52) - 1)) | (G_GUINT64_CONSTANT (1) << 52);
  narrow_below = m == G_GUINT64_CONSTANT (1) << 52;
  even = (m & 1) == 0;
  e2 -= 1075;
  x10 = decimal_exponent_floor (a);
  for (;;)
    {
      k = 16 - x10;
      if (k < 0 || k > 27)
        return FALSE;
      s = -(e2 + k);
      if (s < 1 || s > 56)
        return FALSE;
      hi = _sq_mul_64 (m, pow5_u64[k], &lo);
      if ((hi >> s) != 0)
        return FALSE;
      q = (hi << (64 - s)) | (lo >> s);
      if (q < G_GUINT64_CONSTANT (100000000000000000))
        break;
      x10++;            /* the exponent's guess was one low */
    }
  if (q < G_GUINT64_CONSTANT (10000000000000000))
    return FALSE;
  frac = lo & ((G_GUINT64_CONSTANT (1) << s) - 1);

  /* fifteen digits: the last two of q and the fraction decide the rounding */
  c = round_off (q, frac, 100);
  if (reads_back (c * 100, q, frac, s, pow5_u64[k], narrow_below, even))
    {
      *prec = 15;
      goto done;
    }
  c = round_off (q, frac, 10);
  if (reads_back (c * 10, q, frac, s, pow5_u64[k], narrow_below, even))
    {
      *prec = 16;
      goto done;
    }
  /* seventeen digits, correctly rounded, always read back */
  {
    guint64 half = G_GUINT64_CONSTANT (1) << (s - 1);
    c = q + (frac > half || (frac == half && (q & 1)));
  }
  *prec = 17;
done:
  /* rounding up to the next power of ten moves the exponent */
  if (c == _sq_pow10_u64[*prec])
    {
      c /= 10;
      x10++;
    }
  *d = c;
  *e = x10;
  return TRUE;
}

/* The same text as sq_format_double (the shortest of "%.15g" … "%.17g"
 * that reads back exactly), computed without printf when it can be: in
 * one pass for the usual magnitudes, else by format_g's passes. */
void
_sq_append_shortest (GString *s,
                     double   v)
{
  char tmp[48];

  if (isfinite (v) && v != 0.0)
    {
      double a = fabs (v);
      int e, nd;
      guint64 d;
      /* the text goes straight into room made beforehand */
      char *buf = string_room (s, sizeof tmp);

      if (shortest_one_pass (a, &d, &nd, &e))
        {
          s->len += (gsize) emit_g (buf, signbit (v) != 0, d, nd, e);
          return;
        }
      e = decimal_exponent_floor (a);
      for (int prec = 15; prec <= 17; prec++)
        {
          int len = format_g (buf, v, prec, e);

          if (len < 0)
            break;
          /* "" when these digits do not read back (format_g checked the
           * digits' value as the parser computes it) */
          if (len > 0)
            {
              s->len += (gsize) len;
              return;
            }
        }
      s->str[s->len] = '\0';
    }
  g_string_append (s, sq_format_double (tmp, sizeof tmp, v));
}

/* _sq_append_number's text when it reads back as exactly v, else the
 * shortest text (_sq_append_shortest). Where the one pass applies and v is
 * below 10^(15 - decimals), the shortest digits decide: a text with at
 * most `decimals` decimals, or with nine significant digits, reads back
 * only when it is the shortest one, padded (two such texts would lie
 * closer together than the rounding interval is wide), so one pass serves
 * where a rounding, a reading back and then the shortest were three. */
void
_sq_append_fixed_or_shortest (GString *s,
                              double   v,
                              int      decimals)
{
  guint64 d, t;
  int prec, x10;

  if (isfinite (v) && v != 0.0 && decimals >= 0 && decimals <= 14
      && shortest_one_pass (fabs (v), &d, &prec, &x10) && x10 <= 14 - decimals)
    {
      int nd = prec, needed;

      t = drop_trailing_zeros (d, &nd);
      needed = nd - 1 - x10;        /* decimals the shortest text has */
      if (needed <= decimals)
        append_scaled (s, signbit (v) != 0, t * _sq_pow10_u64[decimals - needed], decimals, decimals);
      else if (nd <= 9 && x10 >= -13)
        {
          /* append_number's nine significant digits read back (they are
           * these digits, padded): its text */
          append_scaled (s, signbit (v) != 0, t * _sq_pow10_u64[9 - nd], 8 - x10, decimals);
        }
      else
        s->len += (gsize) emit_g (string_room (s, 48), signbit (v) != 0, d, prec, x10);
      return;
    }
  if (!append_number (s, v, decimals, TRUE))
    _sq_append_shortest (s, v);
}

gboolean
_sq_parse_int64 (const char *tok,
                 gsize       len,
                 gint64     *out)
{
  gsize i = 0;
  gboolean neg = FALSE;
  guint64 v = 0;

  if (len > 0 && (tok[0] == '-' || tok[0] == '+'))
    {
      neg = tok[0] == '-';
      i = 1;
    }
  if (i >= len)
    return FALSE;
  for (; i < len; i++)
    {
      if (!g_ascii_isdigit (tok[i]))
        return FALSE;
      v = v * 10 + (guint64) (tok[i] - '0');
      if (v > G_MAXINT32)
        return FALSE;
    }
  *out = neg ? -(gint64) v : (gint64) v;
  return TRUE;
}
