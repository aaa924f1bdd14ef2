package speaker

// The pieces of Cluster's choice of the number of speakers.

// averageLinkage clusters items by average-linkage agglomeration on the
// distance matrix d, and returns the labels for every cluster count k
// (cuts[k], k = 1..n).
func averageLinkage(d [][]float64) map[int][]int {
	n := len(d)
	members := make([][]int, n)
	for i := range members {
		members[i] = []int{i}
	}
	alive := make([]bool, n)
	for i := range alive {
		alive[i] = true
	}
	link := func(a, b int) float64 {
		var s float64
		for _, i := range members[a] {
			for _, j := range members[b] {
				s += d[i][j]
			}
		}
		return s / float64(len(members[a])*len(members[b]))
	}
	cuts := map[int][]int{}
	snapshot := func(k int) {
		labels := make([]int, n)
		c := 0
		for a := range n {
			if !alive[a] {
				continue
			}
			for _, i := range members[a] {
				labels[i] = c
			}
			c++
		}
		cuts[k] = labels
	}
	snapshot(n)
	for k := n; k > 1; k-- {
		ba, bb, best := -1, -1, 3.0
		for a := range n {
			if !alive[a] {
				continue
			}
			for b := a + 1; b < n; b++ {
				if alive[b] {
					if l := link(a, b); l < best {
						ba, bb, best = a, b, l
					}
				}
			}
		}
		members[ba] = append(members[ba], members[bb]...)
		alive[bb] = false
		snapshot(k - 1)
	}
	return cuts
}

// silhouette is the mean silhouette of a labelling (0 for one cluster).
func silhouette(d [][]float64, labels []int) float64 {
	n := len(labels)
	k := 0
	for _, l := range labels {
		k = max(k, l+1)
	}
	if k < 2 {
		return 0
	}
	var total float64
	for i := range n {
		sum := make([]float64, k)
		cnt := make([]int, k)
		for j := range n {
			if j != i {
				sum[labels[j]] += d[i][j]
				cnt[labels[j]]++
			}
		}
		if cnt[labels[i]] == 0 {
			continue // a singleton: 0
		}
		a := sum[labels[i]] / float64(cnt[labels[i]])
		b := 3.0
		for c := range k {
			if c != labels[i] && cnt[c] > 0 {
				b = min(b, sum[c]/float64(cnt[c]))
			}
		}
		total += (b - a) / max(a, b)
	}
	return total / float64(n)
}

func distances(embs [][]float32) [][]float64 {
	d := make([][]float64, len(embs))
	for i := range embs {
		d[i] = make([]float64, len(embs))
		for j := range embs {
			d[i][j] = Distance(embs[i], embs[j])
		}
	}
	return d
}
