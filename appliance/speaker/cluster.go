package speaker

// Cluster groups voice embeddings into speakers, their number found, not
// given. weights say how much speech each embedding stands for.
// Embeddings marked short (too little speech to trust alone) do not found
// clusters: each joins the nearest one afterwards. Labels are numbered in
// order of first appearance, so the first voice heard is speaker 0.
//
// With four or more embeddings to trust, they are centred on the
// recording's mean (what every segment shares, the room and steady noise,
// is not who speaks), grouped by average-linkage agglomeration, and the
// number of speakers is the cut whose mean silhouette is highest (how much
// nearer each segment is to its own group than to the next): a ratio, so
// it holds whether noise draws all voices together or not, where a fixed
// distance did not (on recorded voices it found 2 or 3 speakers of 4).
// A recording whose best split scores under minSilhouette is one voice.
// Fewer embeddings are merged by distance (clusterByDistance).
func Cluster(embs [][]float32, weights []float64, short []bool, threshold float64) []int {
	var long []int
	for i := range embs {
		if short == nil || !short[i] {
			long = append(long, i)
		}
	}
	if len(long) < 4 {
		return clusterByDistance(embs, weights, short, threshold)
	}
	sub := make([][]float32, len(long))
	subW := make([]float64, len(long))
	for k, i := range long {
		sub[k] = embs[i]
		subW[k] = 1
		if weights != nil {
			subW[k] = weights[i]
		}
	}
	d := distances(centre(sub, subW))
	cuts := averageLinkage(d, maxSpeakers)
	best, bestSil := 1, minSilhouette
	for k := 2; k <= min(len(long)-1, maxSpeakers); k++ {
		// A cut that leaves a speaker with a single segment must score
		// clearly better: three close synthetic voices, three turns each,
		// split into four (one turn alone) scored 0.685 against 0.672.
		margin := 0.0
		if best > 1 && hasSingleton(cuts[k], k) {
			margin = silhouetteMargin
		}
		if sil := silhouette(d, cuts[k]); sil > bestSil+margin {
			best, bestSil = k, sil
		}
	}
	raw := make([]int, len(embs))
	for i := range raw {
		raw[i] = -1
	}
	for k, i := range long {
		raw[i] = cuts[best][k]
	}
	// Short ones join the nearest cluster's (raw) centroid.
	cent := make([][]float32, best)
	for c := range best {
		sum := make([]float32, len(embs[0]))
		for k, i := range long {
			if cuts[best][k] == c {
				for j, v := range embs[i] {
					sum[j] += float32(subW[k]) * v
				}
			}
		}
		cent[c] = sum
	}
	for i, e := range embs {
		if raw[i] >= 0 {
			continue
		}
		bc, bd := 0, 3.0
		for c := range cent {
			if dd := Distance(e, cent[c]); dd < bd {
				bc, bd = c, dd
			}
		}
		raw[i] = bc
	}
	return byFirstAppearance(raw)
}

// Silhouette clustering constants, set on recorded voices (docs/speakers.md).
const (
	// minSilhouette: a best split scoring less is one voice. One person's
	// turns split in two scored 0.16–0.21 (Allison), 0.32 (the synthetic
	// slt); four people 0.52–0.64, two close ones 0.35–0.41.
	minSilhouette    = 0.34
	silhouetteMargin = 0.02
	maxSpeakers      = 10
)

func hasSingleton(labels []int, k int) bool {
	n := make([]int, k)
	for _, l := range labels {
		n[l]++
	}
	for _, c := range n {
		if c == 1 {
			return true
		}
	}
	return false
}

// byFirstAppearance renumbers labels in order of first appearance.
func byFirstAppearance(raw []int) []int {
	order := map[int]int{}
	out := make([]int, len(raw))
	for i, r := range raw {
		if _, ok := order[r]; !ok {
			order[r] = len(order)
		}
		out[i] = order[r]
	}
	return out
}

// clusterByDistance is the clustering of few embeddings: centred on their
// mean, merged agglomeratively while their centroids are within
// centredThreshold in that space; then clusters whose raw centroids are
// within a fraction of the extractor's verification threshold are merged
// too (centring alone splits one voice by its small variations).
func clusterByDistance(embs [][]float32, weights []float64, short []bool, threshold float64) []int {
	raw := embs
	labels := agglomerate(centre(embs, weights), weights, short, centredThreshold)
	return mergeClose(raw, weights, labels, rawMergeFactor*threshold)
}

// Clustering constants, set on the synthesized test set (docs/speakers.md).
const (
	centredThreshold = 1.0
	rawMergeFactor   = 0.413 // × the built-in threshold (0.046): 0.019
)

func agglomerate(embs [][]float32, weights []float64, short []bool, threshold float64) []int {
	type cluster struct {
		sum     []float64
		members []int
	}
	var cs []*cluster
	for i, e := range embs {
		if short != nil && short[i] {
			continue
		}
		c := &cluster{sum: make([]float64, len(e)), members: []int{i}}
		w := 1.0
		if weights != nil {
			w = weights[i]
		}
		for k, v := range e {
			c.sum[k] = float64(v) * w
		}
		cs = append(cs, c)
	}
	centroid := func(c *cluster) []float32 {
		out := make([]float32, len(c.sum))
		for k, v := range c.sum {
			out[k] = float32(v)
		}
		return out
	}
	for len(cs) > 1 {
		bi, bj, best := -1, -1, threshold
		for i := range cs {
			ci := centroid(cs[i])
			for j := i + 1; j < len(cs); j++ {
				if d := Distance(ci, centroid(cs[j])); d < best {
					bi, bj, best = i, j, d
				}
			}
		}
		if bi < 0 {
			break
		}
		for k, v := range cs[bj].sum {
			cs[bi].sum[k] += v
		}
		cs[bi].members = append(cs[bi].members, cs[bj].members...)
		cs = append(cs[:bj], cs[bj+1:]...)
	}
	raw := make([]int, len(embs))
	for i := range raw {
		raw[i] = -1
	}
	for ci, c := range cs {
		for _, m := range c.members {
			raw[m] = ci
		}
	}
	// Short ones join the nearest cluster (or found one when there is none).
	for i, e := range embs {
		if raw[i] >= 0 {
			continue
		}
		best, bd := -1, 3.0
		for ci, c := range cs {
			if d := Distance(e, centroid(c)); d < bd {
				best, bd = ci, d
			}
		}
		if best < 0 {
			cs = append(cs, &cluster{sum: make([]float64, len(e))})
			best = len(cs) - 1
		}
		raw[i] = best
	}
	// Number by first appearance.
	order := map[int]int{}
	out := make([]int, len(raw))
	for i, r := range raw {
		if _, ok := order[r]; !ok {
			order[r] = len(order)
		}
		out[i] = order[r]
	}
	return out
}

// centre subtracts the recording's mean embedding (weighted) from each:
// what all segments share (the room, the microphone, steady noise) is not
// who speaks, and at 20 dB of noise it had drawn every voice within the
// verification threshold of every other.
func centre(embs [][]float32, weights []float64) [][]float32 {
	if len(embs) < 2 {
		return embs
	}
	mean := make([]float64, len(embs[0]))
	var total float64
	for i, e := range embs {
		w := 1.0
		if weights != nil {
			w = weights[i]
		}
		total += w
		for k, v := range e {
			mean[k] += w * float64(v)
		}
	}
	out := make([][]float32, len(embs))
	for i, e := range embs {
		c := make([]float32, len(e))
		for k, v := range e {
			c[k] = v - float32(mean[k]/total)
		}
		out[i] = c
	}
	return out
}

// mergeClose merges clusters whose weighted raw centroids are within
// limit, renumbering by first appearance.
func mergeClose(embs [][]float32, weights []float64, labels []int, limit float64) []int {
	n := 0
	for _, l := range labels {
		n = max(n, l+1)
	}
	cent := make([][]float32, n)
	for c := range n {
		sum := make([]float64, len(embs[0]))
		for i, l := range labels {
			if l != c {
				continue
			}
			w := 1.0
			if weights != nil {
				w = weights[i]
			}
			for k, v := range embs[i] {
				sum[k] += w * float64(v)
			}
		}
		cent[c] = make([]float32, len(sum))
		for k, v := range sum {
			cent[c][k] = float32(v)
		}
	}
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			i = parent[i]
		}
		return i
	}
	for a := range n {
		for b := a + 1; b < n; b++ {
			if Distance(cent[a], cent[b]) < limit {
				parent[find(b)] = find(a)
			}
		}
	}
	order := map[int]int{}
	out := make([]int, len(labels))
	for i, l := range labels {
		r := find(l)
		if _, ok := order[r]; !ok {
			order[r] = len(order)
		}
		out[i] = order[r]
	}
	return out
}
