// Preloaded (`node --import`) into a counterpart the tests start that listens on every interface when given a
// bare port (Learning Locker's statement service does): a server asked for a port alone listens on 127.0.0.1
// instead. Nothing else about the program changes.
import net from 'node:net';

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function listenOnLoopback(...args) {
  const [port, next] = args;
  const barePort = typeof port === 'number' || (typeof port === 'string' && /^\d+$/.test(port));
  if (barePort && typeof next !== 'string') return listen.call(this, Number(port), '127.0.0.1', ...args.slice(1));
  return listen.apply(this, args);
};
