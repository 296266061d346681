export { saveContactMessage } from './contact.store';
