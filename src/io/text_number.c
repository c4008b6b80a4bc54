/* Exact decimal conversion by integer arithmetic (docs/caches.md, "OBJ frames"). A finite double
 * is m 2^e with m < 2^53; its value times 10^s is then m 10^s 2^e, computed exactly in 128 bits
 * and rounded half to even, as glibc's printf rounds the exact binary value (in the default
 * rounding mode). Values outside the ranges where that fits go to snprintf. */
#include "text_number.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

typedef unsigned __int128 u128;

static const uint64_t POW10[20] = {1ull,
				   10ull,
				   100ull,
				   1000ull,
				   10000ull,
				   100000ull,
				   1000000ull,
				   10000000ull,
				   100000000ull,
				   1000000000ull,
				   10000000000ull,
				   100000000000ull,
				   1000000000000ull,
				   10000000000000ull,
				   100000000000000ull,
				   1000000000000000ull,
				   10000000000000000ull,
				   100000000000000000ull,
				   1000000000000000000ull,
				   10000000000000000000ull};

static u128 pow10_128(int s) { return s <= 19 ? (u128)POW10[s] : (u128)POW10[19] * POW10[s - 19]; }

/* round(m 2^e 10^s) half to even, for m < 2^53, 0 <= s <= 22 and e <= 0; false if it does not
 * fit (never for those ranges but e < -127, which rounds to 0 and is reported as such). */
static uint64_t scaled_round(uint64_t m, int e, int s)
{
	const u128 num = (u128)m * pow10_128(s); /* < 2^53 10^22 < 2^127 */
	if (e == 0) return (uint64_t)num;
	const int shift = -e;
	if (shift >= 127) return 0; /* num < 2^127 / 2: below a half */
	const u128 q = num >> shift, r = num - (q << shift), half = (u128)1 << (shift - 1);
	return (uint64_t)(q + (r > half || (r == half && (q & 1))));
}

/* |v| = m 2^e, m < 2^53 an integer. */
static void split(double a, uint64_t* m, int* e)
{
	int ex;
	const double f = frexp(a, &ex); /* a = f 2^ex, 0.5 <= f < 1 */
	*m = (uint64_t)ldexp(f, 53);
	*e = ex - 53;
}

static size_t fallback(const char* fmt, double v, char* out)
{
	int n = snprintf(out, TEXT_NUMBER_MAX, fmt, v);
	return n < 0 ? 0 : (size_t)n < TEXT_NUMBER_MAX ? (size_t)n : TEXT_NUMBER_MAX - 1;
}

size_t text_g9(double v, char* out)
{
	const double a = fabs(v);
	/* 1e-14 <= |v| < 1e9: s = 8 - X lies in [0, 22], and e <= 0 */
	if (!(a >= 1e-14 && a < 1e9)) return fallback("%.9g", v, out);
	uint64_t m;
	int e;
	split(a, &m, &e);
	int x = (int)floor(log10(a)); /* the exponent in style e; checked below */
	uint64_t n = 0;
	for (int tries = 0; tries < 4; ++tries) {
		const int s = 8 - x;
		if (s < 0 || s > 22) return fallback("%.9g", v, out);
		n = scaled_round(m, e, s);
		if (n >= 1000000000ull) ++x; /* rounding carried (or log10 was low) */
		else if (n < 100000000ull) --x;
		else break;
	}
	if (n < 100000000ull || n >= 1000000000ull) return fallback("%.9g", v, out);
	char d[9];
	for (int i = 8; i >= 0; --i, n /= 10) d[i] = (char)('0' + n % 10);
	int last = 8; /* the last digit kept after removing trailing zeros */
	while (last > 0 && d[last] == '0') --last;
	size_t len = 0;
	if (signbit(v)) out[len++] = '-';
	if (x < -4 || x >= 9) {
		out[len++] = d[0];
		if (last > 0) {
			out[len++] = '.';
			for (int i = 1; i <= last; ++i) out[len++] = d[i];
		}
		out[len++] = 'e';
		out[len++] = x < 0 ? '-' : '+';
		const int ax = x < 0 ? -x : x;
		out[len++] = (char)('0' + ax / 10);
		out[len++] = (char)('0' + ax % 10);
	} else if (x >= 0) {
		for (int i = 0; i <= x; ++i) out[len++] = d[i];
		if (last > x) {
			out[len++] = '.';
			for (int i = x + 1; i <= last; ++i) out[len++] = d[i];
		}
	} else {
		out[len++] = '0';
		out[len++] = '.';
		for (int i = 0; i < -x - 1; ++i) out[len++] = '0';
		for (int i = 0; i <= last; ++i) out[len++] = d[i];
	}
	out[len] = '\0';
	return len;
}

size_t text_f6(double v, char* out)
{
	const double a = fabs(v);
	if (!(a < 1e9)) return fallback("%.6f", v, out); /* also NaN */
	uint64_t n = 0;
	if (a > 0.0) {
		uint64_t m;
		int e;
		split(a, &m, &e);
		n = scaled_round(m, e, 6); /* a < 1e9 < 2^53: e < 0 */
	}
	size_t len = 0;
	if (signbit(v)) out[len++] = '-';
	len += text_i64((int64_t)(n / 1000000u), out + len);
	out[len++] = '.';
	uint64_t f = n % 1000000u;
	for (int i = 5; i >= 0; --i, f /= 10) out[len + (size_t)i] = (char)('0' + f % 10);
	len += 6;
	out[len] = '\0';
	return len;
}

size_t text_i64(int64_t v, char* out)
{
	char tmp[24];
	size_t n = 0, len = 0;
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0) out[len++] = '-';
	while (n) out[len++] = tmp[--n];
	out[len] = '\0';
	return len;
}
