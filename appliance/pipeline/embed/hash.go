package embed

// Features are hashed with 64-bit FNV-1a, written out here rather than taken
// from hash/maphash: stored vectors must come out the same in every process,
// on every machine and under every Go release, and maphash seeds itself
// randomly per process. hash/fnv would do too, but its interface would make
// hashing a byte slice allocate.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// Feature kinds, hashed first so the same string used as a word, a bigram or
// a character n-gram lands on different dimensions.
const (
	kindWord    = 'w'
	kindBigram  = 'b'
	kindGram    = 'g'
	kindCJK     = 'c'
	kindSymbol  = 's'
	kindEmpty   = 'e'
	kindConcept = 'k'
)

type hasher uint64

func newHasher(kind byte) hasher { return hasher(fnvOffset).byte(kind) }

func (h hasher) byte(b byte) hasher { return (h ^ hasher(b)) * fnvPrime }

func (h hasher) bytes(b []byte) hasher {
	for _, c := range b {
		h = (h ^ hasher(c)) * fnvPrime
	}
	return h
}

// mix is the splitmix64 finaliser. FNV's low bits avalanche poorly on short
// inputs, and bucket and sign choices need every bit to be independent.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// golden is splitmix64's increment: stepping a state by it and mixing gives a
// stream of independent 64-bit values from one feature hash.
const golden = 0x9e3779b97f4a7c15
