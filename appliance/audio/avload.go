//go:build (libavcodec || libavformat) && cgo

package audio

/*
#cgo linux LDFLAGS: -ldl
#cgo linux CFLAGS: -I/usr/include/ffmpeg
#cgo darwin CFLAGS: -I/opt/homebrew/include -I/usr/local/include
#include "avload.h"
*/
import "C"

import (
	"fmt"
	"sync"
	"unsafe"
)

// libavcodec is loaded on the first AAC stream or container file rather
// than linked, so an appliance that never sees one maps none of it.
var avcodecOnce = sync.OnceValue(func() error {
	return avLoadResult("libavcodec", func(buf *C.char, n C.int) C.int { return C.hearth_avcodec_load(buf, n) })
})

// avLoadResult runs one of avload.c's loaders and words its failure.
func avLoadResult(name string, load func(*C.char, C.int) C.int) error {
	var buf [512]byte
	if load((*C.char)(unsafe.Pointer(&buf[0])), C.int(len(buf))) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s could not be loaded (%s); install FFmpeg's shared libraries of the version this was built with",
		ErrUnavailable, name, C.GoString((*C.char)(unsafe.Pointer(&buf[0]))))
}
