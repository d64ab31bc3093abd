import express from 'express';

/**
 * The framework's ceiling: Express parsing the same bodies and answering the same acks, with
 * no source check, validation or storage. Run as its own process, like the receiver.
 */
const app = express();
app.disable('x-powered-by');
app.disable('etag');
app.post('/notifications', express.json(), express.urlencoded({ extended: false }), (req, res) => {
  if (req.is('application/x-www-form-urlencoded')) res.type('text/plain').send('res_cd=0000\x1fres_msg=SUCCESS');
  else res.json({ resCd: '0000', resMsg: 'SUCCESS' });
});
app.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => process.send?.('listening'));
