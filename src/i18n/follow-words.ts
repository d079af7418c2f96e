import type { LanguageCode } from './languages.ts';

/**
 * What the pages say to a reader who would follow the publication, in the
 * page's language: the footer's fediverse line (FEDERATION=on), and the
 * newsletter's subscribe form (NEWSLETTER=on). Only the pages built with
 * either setting on say them.
 */
export interface FollowWords {
  /** Before the handle of the page's language's actor: the handle follows it, after a space. */
  fediverse: string;
  /** The subscribe form's heading. */
  subscribeTitle: string;
  /** The visible label of its one field. */
  emailLabel: string;
  subscribeButton: string;
  /** What is kept and why, in one sentence: the address and its language, to send new articles; how it goes. */
  kept: string;
}

export const FOLLOW_WORDS: Record<LanguageCode, FollowWords> = {
  en: {
    fediverse: 'Follow on the fediverse:',
    subscribeTitle: 'New articles by email',
    emailLabel: 'Email address',
    subscribeButton: 'Subscribe',
    kept: 'Only your address and its language are kept, to send you each new article; unsubscribing removes them, and an address left unconfirmed is forgotten after 7 days.',
  },
  fr: {
    fediverse: 'Suivre sur le fédivers :',
    subscribeTitle: 'Les nouveaux articles par email',
    emailLabel: 'Adresse email',
    subscribeButton: 'S’abonner',
    kept: 'Seules votre adresse et sa langue sont gardées, pour vous envoyer chaque nouvel article ; vous désabonner les efface, et une adresse non confirmée est oubliée au bout de 7 jours.',
  },
  es: {
    fediverse: 'Seguir en el fediverso:',
    subscribeTitle: 'Nuevos artículos por correo',
    emailLabel: 'Dirección de correo',
    subscribeButton: 'Suscribirse',
    kept: 'Solo se guardan tu dirección y su idioma, para enviarte cada nuevo artículo; al darte de baja se borran, y una dirección sin confirmar se olvida a los 7 días.',
  },
  pt: {
    fediverse: 'Seguir no fediverso:',
    subscribeTitle: 'Novos artigos por email',
    emailLabel: 'Endereço de email',
    subscribeButton: 'Subscrever',
    kept: 'Só se guardam o seu endereço e o idioma dele, para lhe enviar cada novo artigo; cancelar a subscrição apaga-os, e um endereço por confirmar é esquecido ao fim de 7 dias.',
  },
  it: {
    fediverse: 'Segui nel fediverso:',
    subscribeTitle: 'I nuovi articoli via email',
    emailLabel: 'Indirizzo email',
    subscribeButton: 'Iscriviti',
    kept: 'Si conservano solo il tuo indirizzo e la sua lingua, per inviarti ogni nuovo articolo; annullando l’iscrizione vengono cancellati, e un indirizzo non confermato viene dimenticato dopo 7 giorni.',
  },
  de: {
    fediverse: 'Im Fediverse folgen:',
    subscribeTitle: 'Neue Artikel per E-Mail',
    emailLabel: 'E-Mail-Adresse',
    subscribeButton: 'Abonnieren',
    kept: 'Gespeichert werden nur deine Adresse und ihre Sprache, um dir jeden neuen Artikel zu schicken; mit der Abmeldung werden sie gelöscht, und eine unbestätigte Adresse wird nach 7 Tagen vergessen.',
  },
  ru: {
    fediverse: 'Подписаться в федиверсе:',
    subscribeTitle: 'Новые статьи по почте',
    emailLabel: 'Адрес электронной почты',
    subscribeButton: 'Подписаться',
    kept: 'Хранятся только ваш адрес и его язык, чтобы присылать вам каждую новую статью; отписка удаляет их, а неподтверждённый адрес забывается через 7 дней.',
  },
  ja: {
    fediverse: 'Fediverse でフォロー：',
    subscribeTitle: '新しい記事をメールで',
    emailLabel: 'メールアドレス',
    subscribeButton: '購読する',
    kept: '新しい記事をお送りするためにアドレスとその言語だけを保存し、購読を解除すると削除され、確認されなかったアドレスは7日後に削除されます。',
  },
  ko: {
    fediverse: '페디버스에서 팔로우:',
    subscribeTitle: '새 글을 이메일로',
    emailLabel: '이메일 주소',
    subscribeButton: '구독',
    kept: '새 글을 보내 드리기 위해 주소와 그 언어만 보관하며, 구독을 취소하면 삭제되고 확인되지 않은 주소는 7일 후 삭제됩니다.',
  },
  zh: {
    fediverse: '在联邦宇宙关注：',
    subscribeTitle: '通过电子邮件接收新文章',
    emailLabel: '电子邮件地址',
    subscribeButton: '订阅',
    kept: '我们只保存您的地址及其语言，用于向您发送每篇新文章；退订即删除，未确认的地址会在 7 天后被删除。',
  },
  ar: {
    fediverse: 'تابِع على الفيديفيرس:',
    subscribeTitle: 'المقالات الجديدة بالبريد الإلكتروني',
    emailLabel: 'عنوان البريد الإلكتروني',
    subscribeButton: 'اشترك',
    kept: 'لا يُحفظ إلا عنوانك ولغته، لنرسل إليك كل مقال جديد؛ ويُحذفان عند إلغاء الاشتراك، ويُنسى العنوان الذي لم يُؤكَّد بعد 7 أيام.',
  },
  he: {
    fediverse: 'עקבו בפדיברס:',
    subscribeTitle: 'מאמרים חדשים בדוא״ל',
    emailLabel: 'כתובת דוא״ל',
    subscribeButton: 'הרשמה',
    kept: 'נשמרות רק הכתובת שלכם והשפה שלה, כדי לשלוח לכם כל מאמר חדש; ביטול המינוי מוחק אותן, וכתובת שלא אושרה נשכחת אחרי 7 ימים.',
  },
  hi: {
    fediverse: 'फ़ेडिवर्स पर फ़ॉलो करें:',
    subscribeTitle: 'नए लेख ईमेल से',
    emailLabel: 'ईमेल पता',
    subscribeButton: 'सदस्यता लें',
    kept: 'हर नया लेख आपको भेजने के लिए सिर्फ़ आपका पता और उसकी भाषा रखी जाती है; सदस्यता छोड़ने पर ये मिटा दिए जाते हैं, और बिना पुष्टि वाला पता 7 दिन बाद भुला दिया जाता है।',
  },
  tr: {
    fediverse: 'Fediverse’te takip edin:',
    subscribeTitle: 'Yeni yazılar e-postayla',
    emailLabel: 'E-posta adresi',
    subscribeButton: 'Abone ol',
    kept: 'Size her yeni yazıyı göndermek için yalnızca adresiniz ve dili saklanır; abonelikten çıkınca silinir, onaylanmayan bir adres ise 7 gün sonra unutulur.',
  },
  kab: {
    fediverse: 'Ḍfeṛ deg fediverse:',
    subscribeTitle: 'Imagraden imaynuten s yimayl',
    emailLabel: 'Tansa n yimayl',
    subscribeButton: 'Jerred',
    kept: 'Nḥerrez kan tansa-k d tutlayt-is, i wakken ad ak-d-nazen yal amagrad amaynut; ma tesfesxeḍ ajerred ad ttwakksent, tansa ur yettwasentmen ara ad tettwattu deffir 7 wussan.',
  },
};
