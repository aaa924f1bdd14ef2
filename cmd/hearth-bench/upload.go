package main

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The upload scenario: one recording of -upload-mb megabytes (16 kHz mono
// WAV: bursts of sound and pauses) sent to /v1/stt/transcribe through the
// scripted route, to show that an upload's memory stays flat and how fast
// it goes through.

type uploadResult struct {
	bytes          int64
	elapsed        time.Duration
	status         int
	segments       int
	rssBefore      int64
	rssPeakAfter   int64
	serverCPU      time.Duration
	responseSample string
}

// makeUploadWAV writes a WAV of about size bytes: 2 s of tone, 1 s of
// silence, repeated.
func makeUploadWAV(dir string, size int64) (string, error) {
	path := filepath.Join(dir, "bench-upload.wav")
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	samples := (size - 44) / 2
	hdr := make([]byte, 0, 44)
	hdr = append(hdr, "RIFF"...)
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(36+2*samples))
	hdr = append(hdr, "WAVEfmt "...)
	hdr = binary.LittleEndian.AppendUint32(hdr, 16)
	hdr = binary.LittleEndian.AppendUint16(hdr, 1)
	hdr = binary.LittleEndian.AppendUint16(hdr, 1)
	hdr = binary.LittleEndian.AppendUint32(hdr, 16000)
	hdr = binary.LittleEndian.AppendUint32(hdr, 32000)
	hdr = binary.LittleEndian.AppendUint16(hdr, 2)
	hdr = binary.LittleEndian.AppendUint16(hdr, 16)
	hdr = append(hdr, "data"...)
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(2*samples))
	if _, err := f.Write(hdr); err != nil {
		return "", err
	}
	// One 3 s period, written over and over.
	period := make([]byte, 3*16000*2)
	for i := range 2 * 16000 {
		v := int16(7000 * math.Sin(2*math.Pi*200*float64(i)/16000))
		binary.LittleEndian.PutUint16(period[2*i:], uint16(v))
	}
	for left := 2 * samples; left > 0; {
		n := min(left, int64(len(period)))
		if _, err := f.Write(period[:n]); err != nil {
			return "", err
		}
		left -= n
	}
	return path, nil
}

// runUpload sends the recording as a streamed multipart body.
func runUpload(ctx context.Context, baseURL, token, path string, pid int) uploadResult {
	res := uploadResult{rssBefore: readRSS(pid)}
	st, err := os.Stat(path)
	if err != nil {
		res.responseSample = err.Error()
		return res
	}
	res.bytes = st.Size()
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		part, err := mw.CreateFormFile("file", "recording.wav")
		if err == nil {
			var f *os.File
			if f, err = os.Open(path); err == nil {
				_, err = io.Copy(part, f)
				f.Close()
			}
		}
		if err == nil {
			err = mw.Close()
		}
		pw.CloseWithError(err)
	}()
	req, _ := http.NewRequestWithContext(ctx, "POST", baseURL+"/v1/stt/transcribe", pr)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	cpu0 := processCPU(pid)
	t0 := time.Now()
	resp, err := (&http.Client{Timeout: time.Hour}).Do(req)
	if err != nil {
		res.responseSample = err.Error()
		return res
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	res.elapsed = time.Since(t0)
	res.serverCPU = processCPU(pid) - cpu0
	res.status = resp.StatusCode
	res.segments = strings.Count(string(body), `"start"`)
	res.rssPeakAfter = readPeakRSS(pid)
	res.responseSample = truncate(string(body), 160)
	return res
}

func (r uploadResult) markdown() string {
	var b strings.Builder
	mb := float64(r.bytes) / 1e6
	fmt.Fprintf(&b, "\n### /v1/stt/transcribe: one %.0f MB WAV (%.0f min of 16 kHz audio), scripted route\n\n", mb, float64(r.bytes)/32000/60)
	b.WriteString("| status | segments | wall time | MB/s | × real time | server CPU | RSS before | peak RSS after |\n")
	b.WriteString("|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	secs := r.elapsed.Seconds()
	fmt.Fprintf(&b, "| %d | %d | %s | %.1f | %.0f | %s | %s | %s |\n", r.status, r.segments, r.elapsed.Round(10*time.Millisecond),
		mb/max(secs, 1e-9), float64(r.bytes)/32000/max(secs, 1e-9), r.serverCPU.Round(10*time.Millisecond),
		fmtBytes(r.rssBefore), fmtBytes(r.rssPeakAfter))
	if r.status != http.StatusOK {
		fmt.Fprintf(&b, "\n- response: %s\n", r.responseSample)
	}
	return b.String()
}
