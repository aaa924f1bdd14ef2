package speaker

import "math"

// The pieces of Cluster's choice of the number of speakers.

// averageLinkage clusters items by average-linkage agglomeration on the
// distance matrix d, and returns the labels for every cluster count k up
// to most (cuts[k]). The linkage between groups is kept in a matrix and
// updated as groups merge (the average of the merged groups' linkages,
// weighted by their sizes), so a merge costs a scan of the matrix.
func averageLinkage(d [][]float64, most int) map[int][]int {
	n := len(d)
	link := make([][]float64, n)
	for i := range link {
		link[i] = append([]float64(nil), d[i]...)
	}
	size := make([]int, n)
	group := make([]int, n) // each item's group (the index of its first item)
	alive := make([]bool, n)
	for i := range n {
		size[i], group[i], alive[i] = 1, i, true
	}
	cuts := map[int][]int{}
	snapshot := func(k int) {
		if k > most {
			return
		}
		ids := map[int]int{}
		labels := make([]int, n)
		for i, g := range group {
			if _, ok := ids[g]; !ok {
				ids[g] = len(ids)
			}
			labels[i] = ids[g]
		}
		cuts[k] = labels
	}
	snapshot(n)
	for k := n; k > 1; k-- {
		ba, bb, best := -1, -1, math.Inf(1)
		for a := range n {
			if !alive[a] {
				continue
			}
			for b := a + 1; b < n; b++ {
				if alive[b] && link[a][b] < best {
					ba, bb, best = a, b, link[a][b]
				}
			}
		}
		for c := range n {
			if alive[c] && c != ba && c != bb {
				l := (float64(size[ba])*link[ba][c] + float64(size[bb])*link[bb][c]) / float64(size[ba]+size[bb])
				link[ba][c], link[c][ba] = l, l
			}
		}
		size[ba] += size[bb]
		alive[bb] = false
		for i, g := range group {
			if g == bb {
				group[i] = ba
			}
		}
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
