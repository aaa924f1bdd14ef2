package onnx_test

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

// A small protobuf writer, enough to write an ONNX model by hand: the test
// model is one ReduceL2 over time, [1, T, 80] → [1, 80] (the spread of each
// band about its mean, a crude voice embedding), which proves that the
// runtime loads, feeds and reads a model the way a real speaker model is
// run.
type pb []byte

func (b pb) varint(field int, v uint64) pb {
	b = binary.AppendUvarint(b, uint64(field<<3))
	return binary.AppendUvarint(b, v)
}

func (b pb) bytes(field int, v []byte) pb {
	b = binary.AppendUvarint(b, uint64(field<<3|2))
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}

func (b pb) str(field int, v string) pb { return b.bytes(field, []byte(v)) }

// valueInfo is an ONNX ValueInfoProto of a float tensor; a dim of -1 is
// symbolic (named by param).
func valueInfo(name string, dims []int64, param string) []byte {
	var shape pb
	for _, d := range dims {
		if d < 0 {
			shape = shape.bytes(1, pb(nil).str(2, param))
		} else {
			shape = shape.bytes(1, pb(nil).varint(1, uint64(d)))
		}
	}
	tensor := pb(nil).varint(1, 1).bytes(2, shape) // elem_type FLOAT, shape
	typ := pb(nil).bytes(1, tensor)                // TypeProto.tensor_type
	return pb(nil).str(1, name).bytes(2, typ)
}

// writeMeanModel writes the model and returns its path.
func writeMeanModel(t *testing.T, bands int) string {
	t.Helper()
	axes := pb(nil).str(1, "axes").varint(8, 1).varint(20, 7)     // ints [1], type INTS
	keep := pb(nil).str(1, "keepdims").varint(3, 0).varint(20, 2) // i 0, type INT
	node := pb(nil).str(1, "feats").str(2, "embs").str(3, "mean").str(4, "ReduceL2").bytes(5, axes).bytes(5, keep)
	graph := pb(nil).bytes(1, node).str(2, "mean-voice").
		bytes(11, valueInfo("feats", []int64{1, -1, int64(bands)}, "T")).
		bytes(12, valueInfo("embs", []int64{1, int64(bands)}, ""))
	model := pb(nil).varint(1, 7).str(2, "hearth-test").bytes(7, graph).bytes(8, pb(nil).str(1, "").varint(2, 13))
	path := filepath.Join(t.TempDir(), "mean-voice.onnx")
	if err := os.WriteFile(path, model, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
