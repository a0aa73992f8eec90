// The proxy the HTTP caching conformance suite talks to: hands each request to
// prism-cache-proxy as JSON and writes its answer back as it came (see main.swift).
//
//     node front.mjs [port 8080] [origin http://localhost:8000] [backend http://127.0.0.1:8081/forward]
import http from 'http'

const port = Number(process.argv[2] || 8080)
const origin = process.argv[3] || 'http://localhost:8000'
const backend = process.argv[4] || 'http://127.0.0.1:8081/forward'
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 })

http.createServer((request, response) => {
  const chunks = []
  request.on('data', chunk => chunks.push(chunk))
  request.on('end', () => {
    const headers = []
    for (let i = 0; i < request.rawHeaders.length; i += 2) {
      headers.push([request.rawHeaders[i], request.rawHeaders[i + 1]])
    }
    const body = Buffer.concat(chunks)
    const payload = JSON.stringify({
      method: request.method,
      url: origin + request.url,
      headers,
      body: body.length > 0 ? body.toString('base64') : null
    })
    const handOver = http.request(backend, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, answer => {
      const parts = []
      answer.on('data', part => parts.push(part))
      answer.on('end', () => {
        const { status, headers, body } = JSON.parse(Buffer.concat(parts))
        response.sendDate = false
        response.writeHead(status, headers.flat())
        response.end(Buffer.from(body, 'base64'))
      })
    })
    handOver.on('error', error => {
      response.writeHead(502)
      response.end(String(error))
    })
    handOver.end(payload)
  })
}).listen(port, '127.0.0.1', () => console.log(`front on http://127.0.0.1:${port}, origin ${origin}`))
