package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestChunkedVoiceMessageCountsBytesRead: three 150 MB files in one
// chunked /v2/voice-messages request (no Content-Length to check up front)
// are refused with 413 once the 200 MB cap is read, and nothing is left in
// DATA/tmp. The body is generated as it is sent.
func TestChunkedVoiceMessageCountsBytesRead(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	srv := startServe(t, data, "HEARTH_MDNS=false")
	uid := mustCLI(t, "users", "add", "--data", data, "--name", "Ada")
	token := mustCLI(t, "token", "--data", data, "--user", uid)

	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	const boundary = "hearthcapboundary"
	sent := make(chan int64, 1)
	go func() {
		w := bufio.NewWriterSize(conn, 1<<16)
		var n int64
		chunk := func(b []byte) error {
			if _, err := fmt.Fprintf(w, "%x\r\n", len(b)); err != nil {
				return err
			}
			w.Write(b)
			_, err := w.WriteString("\r\n")
			n += int64(len(b))
			return err
		}
		fmt.Fprintf(w, "POST /v2/voice-messages HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: multipart/form-data; boundary=%s\r\nTransfer-Encoding: chunked\r\n\r\n",
			strings.TrimPrefix(srv.base, "http://"), token, boundary)
		zeros := make([]byte, 1<<20)
		func() {
			for f := range 3 {
				if chunk(fmt.Appendf(nil, "--%s\r\nContent-Disposition: form-data; name=\"files\"; filename=\"part%d.wav\"\r\nContent-Type: audio/wav\r\n\r\n", boundary, f)) != nil {
					return
				}
				for range 150 {
					if chunk(zeros) != nil {
						return
					}
				}
				if chunk([]byte("\r\n")) != nil {
					return
				}
			}
			if chunk(fmt.Appendf(nil, "--%s--\r\n", boundary)) == nil {
				w.WriteString("0\r\n\r\n")
				w.Flush()
			}
		}()
		sent <- n
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no response to a 450 MB chunked upload: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	conn.Close()
	<-sent
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("450 MB chunked upload: %d %.200s, want 413", resp.StatusCode, body)
	}
	var left int64
	filepath.Walk(filepath.Join(data, "tmp"), func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			left += fi.Size()
		}
		return nil
	})
	if left != 0 {
		t.Fatalf("DATA/tmp holds %d bytes after the refused upload", left)
	}
}
