import { newId } from '@crm/domain';
let t = performance.now();
for (let i = 0; i < 1_000_000; i++) newId('record');
console.log('1M ids ms', performance.now() - t);
