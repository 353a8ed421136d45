package tracefile

// Sampled reports whether the case keyed id (a trace id in hex, or a
// conversation's id) falls within rate (0 to 1) of all keys. The choice
// is a hash of the id alone, so every reader at the same rate takes the
// same cases, and a reader at a higher rate takes a superset of them.
// Trace ids are compared without regard to case.
func Sampled(id string, rate float64) bool {
	switch {
	case rate >= 1:
		return true
	case rate <= 0:
		return false
	}
	return float64(keyHash(id, 0)>>11)/(1<<53) < rate
}

// InShard reports whether the case keyed id belongs to shard index (1 to
// count) of count. Shards split the keys into count disjoint parts that
// together hold every key; the hash is independent of Sampled's, so a
// shard of a sample is still about rate of the shard.
func InShard(id string, index, count int) bool {
	if count <= 1 {
		return true
	}
	return int(keyHash(id, 1)%uint64(count)) == index-1
}

// keyHash is FNV-1a over the lower-cased id and a salt, finished with
// splitmix64's mixer so that nearby ids spread over the whole range.
func keyHash(id string, salt byte) uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	h = (h ^ uint64(salt)) * prime
	for i := 0; i < len(id); i++ {
		h = (h ^ uint64(lower(id[i]))) * prime
	}
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	h ^= h >> 31
	return h
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
