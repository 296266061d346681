import { Initial1795251779224 } from './1795251779224-Initial';
import { CotAnalyticsWindow1795252809100 } from './1795252809100-CotAnalyticsWindow';
import { AccountsAuth1795252851460 } from './1795252851460-AccountsAuth';
import { CotFollows1795258299294 } from './1795258299294-CotFollows';
import { ContactMessages1795259844820 } from './1795259844820-ContactMessages';
import { AlertsPricesWatchlists1795260314908 } from './1795260314908-AlertsPricesWatchlists';
import { News1795454364789 } from './1795454364789-News';
import { Insiders1795461825769 } from './1795461825769-Insiders';
import { NewsLinksOutbox1795462034548 } from './1795462034548-NewsLinksOutbox';
import { InsidersIndexes1795791792602 } from './1795791792602-InsidersIndexes';
import { InsidersFiledRoles1795792400000 } from './1795792400000-InsidersFiledRoles';
import { Whales1795792475719 } from './1795792475719-Whales';
import { WhalesValues1795792500000 } from './1795792500000-WhalesValues';
import { WhalesAlerts1795792600000 } from './1795792600000-WhalesAlerts';
import { WhalesWatchedIndex1795792700000 } from './1795792700000-WhalesWatchedIndex';
import { Predictions1795804792865 } from './1795804792865-Predictions';
import { TelegramChannel1795804900000 } from './1795804900000-TelegramChannel';
import { Yields1795805000000 } from './1795805000000-Yields';
import { PredictionQuestionScores1795805500000 } from './1795805500000-PredictionQuestionScores';
import { Lockups1795806000000 } from './1795806000000-Lockups';
import { Chat1795807000000 } from './1795807000000-Chat';
import { Billing1795808000000 } from './1795808000000-Billing';
import { ChatRoomInvites1795809000000 } from './1795809000000-ChatRoomInvites';

// Migrations in the order they run. Add new ones at the end; never edit one that has shipped.
export const MIGRATIONS: Function[] = [Initial1795251779224, CotAnalyticsWindow1795252809100, AccountsAuth1795252851460, CotFollows1795258299294, ContactMessages1795259844820, AlertsPricesWatchlists1795260314908, News1795454364789, Insiders1795461825769, NewsLinksOutbox1795462034548, InsidersIndexes1795791792602, InsidersFiledRoles1795792400000, Whales1795792475719, WhalesValues1795792500000, WhalesAlerts1795792600000, WhalesWatchedIndex1795792700000, Predictions1795804792865, TelegramChannel1795804900000, Yields1795805000000, PredictionQuestionScores1795805500000, Lockups1795806000000, Chat1795807000000, Billing1795808000000, ChatRoomInvites1795809000000];
