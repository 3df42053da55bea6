// What node:http itself costs for the quiz's answer, without the service: fixed bytes shaped like
// `GET /quiz` with a key (a ~1.4 KB Korean quiz body, the twelve response headers the service
// sends), or parts of them. MODE=hello (2 headers, 17-byte body), body (the quiz body, 2 headers),
// headers (a ~100-byte body with the twelve headers), quiz (both), quiz-buffer (both, the body as
// a Buffer). Compare the modes with each other in one session, e.g. for each mode in turn:
//   MODE=quiz PORT=46031 node test/bench/probes/node-ceiling.mjs &
//   wrk -t1 -c50 -d4s http://127.0.0.1:46031/ ; kill %1
import { createServer } from "node:http";

const mode = process.env.MODE ?? "quiz";
const quiz =
  '{"success":true,"quiz":{"quiz_id":"qz_ABCDEFGHabcdefgh","type":"meaning_to_idiom","question":"다음 뜻을 가진 사자성어를 고르세요.",' +
  '"prompt":"어떤 일을 하는 데 있어 처음과 끝이 한결같이 변함없음을 이르는 말.","choices":[{"key":"1","text":"始終如一","hangul":"시종여일"},' +
  '{"key":"2","text":"一石二鳥","hangul":"일석이조"},{"key":"3","text":"東問西答","hangul":"동문서답"},{"key":"4","text":"自業自得","hangul":"자업자득"}],' +
  '"answer":"1","answer_idiom":{"idx":12,"hanja":"始終如一","hangul":"시종여일","chosung":"ㅅㅈㅇㅇ","meaning":"어떤 일을 하는 데 있어 처음과 끝이 한결같이 변함없음을 이르는 말."}},' +
  '"quota":{"plan":"annual","remaining":9876}}';
const small = '{"success":true,"idiom":{"idx":5,"hanja":"角者無齒","hangul":"각자무치"},"quota":{"plan":"annual","remaining":9876}}';
const hello = '{"hello":"world"}';
const JSON_TYPE = "application/json; charset=utf-8";
const EXPOSE = "RateLimit, RateLimit-Policy, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset";

let n = 0;
/** The service's headers of a metered answer, the counts changing per request as they do there. */
function quizHeaders(length) {
  n++;
  return {
    "Content-Type": JSON_TYPE,
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Expose-Headers": EXPOSE,
    "RateLimit-Policy": '"daily";q=10000;w=86400',
    RateLimit: `"daily";r=${9000 + (n % 999)};t=${30000 + (n % 1000)}`,
    "X-RateLimit-Limit": "10000",
    "X-RateLimit-Remaining": String(9000 + (n % 999)),
    "X-RateLimit-Reset": "1763823600",
    "Cache-Control": "no-store",
    "Content-Length": String(length),
  };
}

const server = createServer((_req, res) => {
  switch (mode) {
    case "hello":
      return void res.writeHead(200, { "Content-Type": JSON_TYPE, "Content-Length": Buffer.byteLength(hello) }).end(hello);
    case "body":
      return void res.writeHead(200, { "Content-Type": JSON_TYPE, "Content-Length": Buffer.byteLength(quiz) }).end(quiz);
    case "headers":
      return void res.writeHead(200, quizHeaders(Buffer.byteLength(small))).end(small);
    case "quiz-buffer": {
      const bytes = Buffer.from(quiz);
      return void res.writeHead(200, quizHeaders(bytes.length)).end(bytes);
    }
    default:
      return void res.writeHead(200, quizHeaders(Buffer.byteLength(quiz))).end(quiz);
  }
});
// The same start-up line as the baselines, so `startServer` in ../lib.ts can start it too.
server.listen(Number(process.env.PORT ?? 46031), "127.0.0.1", () =>
  console.error(JSON.stringify({ msg: `node-ceiling ${mode}`, url: `http://127.0.0.1:${server.address().port}` })),
);
process.on("SIGTERM", () => server.close(() => process.exit(0)));
