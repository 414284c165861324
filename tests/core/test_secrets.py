"""find_secret: credential-shaped strings are caught, ordinary personal facts and chat lines are not.

Every credential below is made up (random characters in the right shape); none of them is real.
"""

import pytest

from core.secrets import find_secret

# Sentences an agent might try to store that carry a credential.
SECRET_SENTENCES = [
    # AWS
    "My AWS access key id is AKIAVQJXXVBOTHD0WTFL, region us-east-1.",
    "Temporary creds from STS: ASIAHBMUAPTT0ZN3X0PD (they expire in an hour).",
    "From ~/.aws/credentials: aws_secret_access_key = HVJWDBt2hWdQZUm14QhoxhLPAbQcEFUV2fsjGHb6",
    'Put this in the env file: AWS_SECRET_ACCESS_KEY="HrlEOS47WgjKCu+0xxKhg5QjWV1mKaUyvBPs0jSO"',
    # GitHub
    "here is the token: ghp_BY6rfNcAKEIOUttYpATIk27f4t3tGolUByxR",
    "The OAuth app handed me gho_mXBYQ0DVbpag1xYKiuMw7TpHD8BHbNdZU0NY after login.",
    "GitHub App user-to-server token: ghu_J2gClNbc7Hrd0APsmYaUSRCsllZq3ZycZOkN",
    "The Actions installation token was ghs_8gaW18vjsgJ0Wu8FxTwXqxni7z9KwRkNr4aE, use it quickly.",
    "Save the refresh token ghr_28uz5eRTpPWzUB4q60sskDI1EDL0Y6wu1JOS for the bot.",
    "My fine-grained PAT is github_pat_11TAHEAKA90ATZL8RTFKBH_"
    "2Cde2wioVMEuUYMjPeFXsRgZzCYTHY2IvGYF0eYF2ExFJgKLDL36awmUDt8",
    # GitLab
    "GitLab personal access token for CI: glpat-RSOtv75y4SXvE9rwLbAt",
    # Slack
    "Slack bot token for the standup bot: xoxb-809970701343-0671458713231-G2BqxLHmAuMe57l9JuO4iIhO",
    "my Slack user token is xoxp-542375180783-752346320268-7496510079068-0d1a0dc00f0e71a714a16e81c1aad236",
    "The socket-mode app token is xapp-1-A1HD8035BXT-6144198012538-"
    "5ab3adf32b1cc8fa650bdf6593d1b61b4b171b2f3a9f889eeaf77ee09a4496e0",
    "Post deploy alerts to https://hooks.slack.com/services/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",
    # Stripe
    "Stripe secret key for the shop: sk_live_5ozhONva1lZp814HtFbtfeeH",
    "The restricted key for reporting is rk_live_v0fG2xPVD8AfOTovYGkYSrIi",
    "New Stripe key: sk_live_51BSed1S3wlj46Fuq3sXRo5QhgYrZJd6F58LKideRuauiFtEvGjfLg1gJk7bwKGfGhgs870XhRQXd"
    "NWOAvlhFka84v7bMwNDlfB",
    # OpenAI
    "My OpenAI key is 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",
    "OPENAI_API_KEY=sk-proj-JWImKMG4hEbuUVDPDR_m0k5iqkwUONAIifEcLav-q5ZvQmLLT3BlbkFJ8ZrF8w50SR2Qugs4lIFVRdxtDy"
    "KUOtfZUTqr8aFvnKbnHFbD",
    "The service account key is sk-svcacct-fj3u-ypO09RnKw1zW9_ohP46PbmT1TOkzfR1wKbPXTXx8TTx4XUMGmTtfc6y-xI2",
    # Anthropic
    "ANTHROPIC_API_KEY=sk-ant-api03-5MTL3xzfMg5lJYj-loHI3Yhc1OxT_8QY4_3BMDogiSTRIiP9LJm7R04ZhbGSdGWoZ6axl7K"
    "BGgMVGOYn7B3-5SApYXfE_AA",
    "remember the admin key sk-ant-admin01-1ds3vbgqMMvFuz4zf3ATNeY2Pseh093Fj9fOptqCWCsuZrJZaVLaPeAU5moHH5F_"
    "grANC_aBcnwDDOOAZvw6d3eK3pxFkAA",
    # Google
    "Google Maps API key for the website: AIzahJA5uFyeUhwksU8dSaNrFWv5SRclfFhhqCm",
    "Firebase config has apiKey: 'AIzazhp59yZk4d6_GlThw-ZqyC85Nn7Jf30xIOd' in it.",
    "The OAuth client secret is 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, client id is in the console.",
    # Hugging Face
    "My Hugging Face token: hf_gCg4zjIccvbkmUAolhChZ9oZGrp27YmBnB",
    # JWTs
    "Use this header: Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI4ZjNjMjEiLCJuYW1lI"
    "joiRGFuYSIsImlhdCI6MTcxODAwMDAwMH0.0M8KVM-w8MDaD3vSS1Mmn7qOiqh1yudML66YbgqaD7X",
    "the session cookie was eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0.eyJpc3MiOiJodHRwczovL2F1dGguZXhhbXBsZS5jb20"
    "iLCJleHAiOjE3MTgwMDM2MDAsInNjb3BlIjoicmVhZCJ9.BPgUbqr2RbwXOq43IedbtWe27WH77hBlyqz_9PNldsWhXK64VtGHZA2PQLU"
    "D_W1nW4kGeJ_ky88BV8_luteLKW",
    # PEM and other private keys
    "Here's the deploy key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu8x1Qm2Zc9FfT0aKp3Xb\n"
    "-----END RSA PRIVATE KEY-----",
    "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBq3xT9vQ2mYk7c1Wf0aLd8sPz\n-----END EC PRIVATE KEY-----",
    "my ssh key is -----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ "
    "-----END OPENSSH PRIVATE KEY-----",
    'Service account JSON: {"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0B\\n'
    '-----END PRIVATE KEY-----\\n"}',
    "My PGP secret key, keep it safe:\n-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBGZq3xUBCAC7\n"
    "-----END PGP PRIVATE KEY BLOCK-----",
    "The TLS key for the blog:\n-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkq\n"
    "-----END ENCRYPTED PRIVATE KEY-----",
    "From my .ppk file: PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nComment: rsa-key-20240611",
    # Credentials in URLs
    "The intranet wiki is https://priya:Hunter2-Secret@intranet.acme-corp.com/wiki/Home",
    "DATABASE_URL=postgres://app_user:Qw7uT3pLx9@db.internal:5432/app",
    "prod cluster: mongodb+srv://admin:Xk9f2LmQp0Zr@cluster0.ab1cd.mongodb.net/prod?retryWrites=true",
    "Celery broker is redis://:s3cr3tRedisPass@cache.internal:6379/0",
    "Cloudant URL: https://acme-app:5e4c82d972a25c246144734cb16d7b75d5ad4ac12a9f644d711943794e8249b1"
    "@acme-app.cloudant.com",
    # npm and PyPI
    "my npm publish token is npm_tZZ6pgfRfnwOo0Te2eV9RmRj7QcMwVRa1RCr",
    "Add to .npmrc: //registry.npmjs.org/:_authToken=npm_NdKfMDsRMMepIO9onDfakNMYXc1RVLJ7yyHw",
    "PyPI upload token: pypi-AgEIcHlwaS5vcmcKTiVQ47qsxG72VnY6wGD4tylc_Y3oLOr0GlsP5S-KXv5Zzjhe3p1g1aKfux6fX1L3d"
    "d4u2dDGqt1NvVeIWmQmcVFzbjcoP95wL0rKA53zmg7srxirfu19Ac_",
    "TestPyPI token is pypi-AgENdGVzdC5weXBpLm9yZwkKd2Lq1D595WXjjOt6v3rzKE4RNo88yLVvlwEpgnR74KLO10yZ2ChVIHNaQz"
    "lMKYdILjCZO4uEHrIxdNb9UixrXkOKKjOwTTozqv",
    # Email and messaging providers
    "SendGrid API key: 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",
    "Twilio API key SID SK777c027aaddbfe258b6736c838acdc4b for the SMS reminders",
    "Twilio account ACbe92537f2f26ff29c1026be55ac96413, auth token is in 1Password",
    "Mailchimp key for the newsletter: 1b5250f067b74c68bd1ee27518e4bd6e-us12",
    "Discord bot token: Mc2PD6Pjnk2uprePtDxzhelO.IxBssM.rgnfHCzbt5G7-eSeiOJcT_HHqod",
    "the new Discord token is NpKkxp3IAcFx1RmhyLbLuMMAgs.Nt7lRw.3zWLA825gFKEOU0Ekm5h-Kt9sbg9bAjtbDV3J7",
    "Telegram bot token from BotFather: 522193789:AA59r5zFa1lykVg5kpYYrDYo57oJP6hq6It",
    # Payments, artifact stores, clouds
    "Square OAuth secret sq0csp-Ly8k_QY0vPToTry_L31PNgqWbch2QUxxjY-oXqUj-22 for the POS integration",
    "the Artifactory encrypted password is AP6xK2m9QvR4tL8wZ3nB7cY1dF5hJ0sEuWq4Tg, don't share it",
    "Artifactory API key: AKCp8J1gvcCLAR4SrzFVaz70zFJlX5DC7ghCx4n4AEASn67opMa2AigDbvXeF6M3KvsdoqPoC",
    "Storage connection string: DefaultEndpointsProtocol=https;AccountName=acmebackups01;AccountKey=//UjgjfXu"
    "dzTQXGqi+x8PikL2t/yiRbiMdYN2fFq6oCoS1UFyVlYONgEUsYx1ihEeGY14iiMyD5FN+kvkdgK7F==;"
    "EndpointSuffix=core.windows.net",
    "softlayer_api_key = 7r08a2eesf1pmhg7i0hbn5k25c6co96tq0ibt3xpltm7e41hbdur8iyzqj37uwqi",
    "ibm_cos_hmac_secret_access_key: 5e9c9d83589a8070fec594d17a783a06aac2f80f9701b53e",
    "IBM_CLOUD_API_KEY=TQuZxLQZ35BqewvoSFxhfrEw0bVCTvmiaXcaAK9G0Wui",
    # Passwords: phrases, assignments, config lines (new in issue 11)
    "my password is hunter2",
    "My Netflix password is BlueSky!2024, don't lose it.",
    "password: Tr0ub4dor&3",
    "The wifi password is casa-raman-5821.",
    "Wi-Fi password for the cabin is pinecone77, the network is LakeHouse.",
    "Run it as PGPASSWORD=q8Zr2mVt9w psql -h db.internal app",
    "DB_PASSWORD=s3cr3t-Passw0rd",
    'config: {"user": "app", "password": "gR8#kq!29z"}',
    "Server=db01;Database=crm;User Id=sa;Pwd=Winter2024!;",
    "The old password was correcthorsebatterystaple.",
    "Her email login is maria.lopez@gmail.com, password Sunflower88",
    "passphrase: 'purple monkey dishwasher'",
    "The router password has been changed to Qw7!mZp2.",
    "ssh pi@raspberrypi.local, the password is raspberry",
    "login admin / pwd: letmein99",
    "My bank passcode is 482913.",
    # PINs and card codes
    "My debit card PIN is 7294.",
    "The alarm code is 1975, disarm it when you get in.",
    "CVV 382 on the back of the Visa.",
    "SIM PIN: 0852",
    # Key, secret and token assignments with a random value
    "export MYSERVICE_API_KEY=Zx81kQp0Lm3NvB7cX2tY",
    "api_key=9f8e7d6c5b4a39281706f5e4d3c2b1a0",
    "SECRET_KEY=django-insecure-x7k2m9qzw4vr1p8s0t3u6y5e",
    "client_secret=tIY7uq6T2bwGfcCvJAXrF6bnZ3eBZclI",
    "The Mailgun API key is key-3ax6xnjp29jd6fds4gc373sgvjxteol0",
    "x-api-key: 50756EHugmANb7qiSXbcmjoaRsuUwpNF",
    "Here's the Heroku API key: 3f2b8c1e-9d4a-4e7b-b6a5-0c1d2e3f4a5b",
    "secret access key: 9jJBAciI05FhfwKVqlUr5Qrec8TNecj9iNOrjj5V",
    "encryption_key: b1789a6c52cf63c03378ec16c03888ad3e21c5cf",
    "Google gave me the OAuth refresh token 1//0gL9x7Yq2Zk3Wm4Vn5Ub6Tc7Sd8Re9Qf0Pg",
    "license key: 7KQ9M-XW2T4-HB8PJ-3RCVY-6DNFG",
    # Authorization headers and Bearer tokens
    "curl -H 'Authorization: Bearer abcDEF123ghiJKL456mnoPQR' https://api.example.com/v1/me",
    "Authorization: Basic cHJpeWE6c3VwZXJzZWNyZXQ=",
    "The header is Authorization: Token 9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b",
    "Use bearer ybIcH6zIZKhFfSke7IDA69Z7zrpEFivB for the staging API.",
    # AWS secret access keys with no label
    "The second column of the CSV was fqRTk8j1d+bWWbjkloG1QX647kdNl9cDo+/GbVMs",
    "AKIAVQJXXVBOTHD0WTFL and zvR4+EPZGz3zBXCOArr+SfiJvo58JB0W+O5PjeJf for the backup bucket",
    "Keep JTNcrZ6ydIEsgo5nVjzz8Gwb8ewCISuYCl0Xq56z somewhere safe.",
    # Payment cards (Luhn-valid, each network's prefix and length, as printed)
    "My Visa is 4787 7893 2879 2170, exp 09/27.",
    "Card: 5174-6814-5384-0197",
    "Amex 3461 231007 72832, the name on it is P RAMAN",
    "Use 6011940326991024 for the hotel deposit.",
    "JCB card 3530 3095 5972 9791",
    "Diners Club 3626 224393 3284",
    "The new Mastercard number is 2221 6619 3451 4504",
    "UnionPay 6236 7916 0110 8431 for the Shanghai trip",
    "The 19-digit Visa is 4003 3907 5793 8347 013.",
    # IBANs (valid mod-97 checksums)
    "Wire it to DE89 3704 0044 0532 0130 00 (Commerzbank).",
    "IBAN: FR76 3000 6000 0112 3456 7890 189",
    "My Dutch account NL91ABNA0417164300",
    "Rent goes to ES91 2100 0418 4502 0005 1332.",
    "IT60X0542811101000000123456 is the landlord's IBAN.",
    "Pay the plumber at BE68 5390 0754 7034.",
    "Polish account PL61 1090 1014 0000 0712 1981 2874",
    # US social security numbers
    "Her social security number is 536-22-8145.",
    "ssn: 401-58-2290",
    "SSN 612 47 3018",
    "The W-2 shows 287-65-4321 as my number.",
    # Hidden: zero-width characters, fullwidth letters, keys split in two
    "Access key id AKIAVQJX XVBOTHD0WTFL (split so no scanner sees it)",
    "ghp_BY6rfNcAKEIO\u200bUttYpATIk27f4t3tGolUByxR",
    "my key: ｓｋ＿ｌｉｖｅ＿５ｏｚｈＯＮｖａ１ｌＺｐ８１４ＨｔＦｂｔｆｅｅＨ",
    "token gho_mXBYQ0DVbpag1xYK\niuMw7TpHD8BHbNdZU0NY",
    "sk-ant-api03-5MTL3xzfMg5lJYj\u00ad-loHI3Yhc1OxT_8QY4_3BMDogiSTRIiP9LJm7R04",
    "Ｐａｓｓｗｏｒｄ： Ｈｕｎｔｅｒ２",
    "Never email anyone my AWS key AKIAVQJXXVBOTHD0WTFL",
    # More vendors
    "DigitalOcean token dop_v1_9209dcb468e07e032fd0db161b56bb9a2f5fe555a6323d188a3b99e68433f7a4",
    "Shopify admin token 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",
    "Databricks PAT dapi783d50ead5d279dd919304ad752a37fe",
    "VAULT_TOKEN is hvs.IaRWdsZAdw52k1J9wMHlCh-Wc60LO0SMJRuXf19GJlXBHsVo7pJ4aeHoF8f0kJzUslxYULkvfpxcrrL8Lg",
    "Postman key PMAK-66da7db79e4bc91fcb656add-11adf5db7a19e5cbf0d5e6d2e0cc811dcb",
    "Linear: lin_api_8VQTQ3rUkjMeWLZGDIWh7eBERjPZthNbWHMnIPm2",
    "my age identity AGE-SECRET-KEY-1KN3JMLJ4PWFYG8NS899Z7ZS36QVYGTDLRFSQCZ6ZPGFQK6QL9A5JZ2DN8F",
    "GROQ: 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",
    "The Notion integration uses ntn_TpjxO4BDnkJJYpvcKLgXiV3jeJxOcWcC0dk74qwVnDTXRv",
    "Stripe test key sk_test_tfZB6EYYgzIQyyPUblK4P8eb",
    "the webhook signing secret whsec_c27XvSjg2UQXPO29v8zO87SjAtiHrHI8",
    "Alerts go to https://discord.com/api/webhooks/1187654321098765432/ZwIZRtbRMk_9Sg0kJwocDU2FlHGzBws_P0RVC2gW"
    "Ooihqoxo3KqTvmUQL6AYKeue6Yfq",
    "Grafana service account glsa_EaUx6Y2OCXoI4jQTmTcr4ZKmhtFL4WaZ_88ff5dd6",
    "Replicate: r8_hTn7ya3Ah9V3rlr10onpaORsGmAf9lAmm6cZI",
    "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 is the Perplexity key",
    # LLM keys: sk-… (OpenAI legacy, DeepSeek-like), OpenRouter (issue 24)
    "OPENAI_API_KEY=sk-Zq8VfJ2kLm4NpR7sTu1WxY3bCd5EgH6iJk9LmN0oPq2RsT4u",
    "My DeepSeek key is sk-9c1f7e3a5b2d4c6e8f0a1b3c5d7e9f2a, keep it safe.",
    "The Moonshot key sk-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z works for the bot.",
    "openrouter: 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",
    # PuTTY private keys, v2 and v3
    "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: eddsa-key-20240611\nPublic-Lines: 2\n"
    "AAAAC3NzaC1lZDI1NTE5AAAAIJ1Yq0Fv2d9QeGk7cN3sRtX5bW8mZ4aL6pH0jK2oV1uE\n"
    "Private-Lines: 1\nAAAAIHq3mB7xK9sW2dF5gJ8cN1vL4rT6yP0zQ3eU5iO7aS9h\n"
    "Private-MAC: 3f8a2c1e9d7b5a4c6e8f0a2b4d6c8e1f3a5b7d9c2e4f6a8b0c1d3e5f7a9b2c4d",
    "from the .ppk:\nPrivate-Lines: 14\nAAABAQCmX2bQ7vL9kR4tY1wZ6nF3sJ8hD5gC0xV2mB7aN4pE9uK1",
    # Django and other secret keys with symbols
    "SECRET_KEY = 'k#8z!@p9^x$w2&m*q(-_=+)v7n3b5c1d0e4f6g8h0j2l4r6t8y'",
    'SECRET_KEY="django-insecure-5$w!x@8k#c(9v)2z-_=+m^p&q*r3t7y1u0i4o6"',
    "DJANGO_SECRET_KEY=g^2b!7x(@k9#m$1q&z*v4w)n8p-_=+c3r5t0y6u2i8o4e1a7s9",
    '{"secret_key": "w9!vX#2mQ$7kL@4pZ^8nR&1tB*6yF(3hJ)5gD-0cS"}',
    # Credentials on command lines
    "curl -u admin:Hunter2x https://api.example.com/v1/status",
    "Run curl --user bob:s3cr3tPass -X DELETE https://ci.example.com/job/42",
    "http -a alice:wonderland123 GET https://httpbin.org/basic-auth/alice/wonderland123",
    "wget --user=bob --password=rosebud https://files.example.com/backup.tar.gz",
    "mysql -u root -pS3cretPass mydb < dump.sql",
    "sshpass -p 'hunter22' ssh pi@raspberrypi.local",
    # Payment cards with dots and other separators
    "My Visa: 4111.1111.1111.1111, exp 09/27.",
    "Amex 3782.822463.10005 for the hotel.",
    "The card is 5555/5555/5555/4444.",
    "Card number 4242 · 4242 · 4242 · 4242",
    # Encoded secrets: base64, URL escapes, HTML entities
    "config blob: cGFzc3dvcmQ9aHVudGVyMng5",
    "Z2hwX0JZNnJmTmNBS0VJT1V0dFlwQVRJazI3ZjR0M3RHb2xVQnl4Ug==",
    "https://example.com/callback?token=ghp%5FBY6rfNcAKEIOUttYpATIk27f4t3tGolUByxR",
    "login form data: user%3Dpriya%26password%3Dhunter2",
    "&#103;&#104;&#112;&#95;&#66;&#89;&#54;&#114;&#102;&#78;&#99;&#65;&#75;&#69;&#73;&#79;&#85;&#116;&#116;&#89;"
    "&#112;&#65;&#84;&#73;&#107;&#50;&#55;&#102;&#52;&#116;&#51;&#116;&#71;&#111;&#108;&#85;&#66;&#121;&#120;&#82;",
    "<p>my&#32;password&#61;Tr0ub4dor&amp;3</p>",
    # Tokens split in three or more pieces, reversed tokens
    "ghp_BY6rfNcAKE IOUttYpATIk27 f4t3tGolUByxR",
    'token = "ghp_BY6rfNcAKE" + "IOUttYpATIk27" + "f4t3tGolUByxR"',
    'KEY = ("AKIAVQJX"\n       "XVBOTHD0"\n       "WTFL")',
    "AKIA VQJX XVBO THD0 WTFL",
    "RxyBUloGt3t4f72kITApYttUOIEKAcNfr6YB_phg (read it backwards)",
    "LFTW0DHTOBVXXJQVAIKA",
    "the key, reversed: AA_Ef"
    + "XYpAS5-3Bn7YOGVMgGB"
    + "K7lxa6ZoWGdSGbhZ40R7mJL9PiIRTSigoDMB3_4YQ8_TxO1chY3IHol-jYJl5gMfzx3LTM5-30ipa-tna-ks",
    # Passwords in French, German, Spanish, Italian, Portuguese, Dutch
    "Mon mot de passe est soleil42.",
    "Le mot de passe du wifi est maison2024",
    "Mein Passwort ist Sonnenschein.",
    "Das Kennwort lautet Tr0ub4dor.",
    "Mi contraseña es girasol.",
    "La clave del wifi es casa1234",
    "La mia password è tramonto88.",
    "La password del wifi è ciaobella.",
    "A minha senha é saudade2020",
    "Mijn wachtwoord is zonneschijn.",
    "Passwort: Geheim!123",
    "contraseña=Perro$2023",
    "wachtwoord: fiets123",
    "senha: abacaxi99",
    "mot_de_passe=Chat#2024",
]

# Personal facts and chat lines that must be stored as they are.
ORDINARY_SENTENCES = [
    # People and family
    "My name is Priya Raman and I go by Pri.",
    "My daughter Maya turns seven on March 14th.",
    "Colby is my son; he lives in Los Angeles with his partner Jordan.",
    "Grandpa Walter was born in 1931 in Tromsø, Norway.",
    "I have two brothers, Ethan and Luis, and one sister, Ana.",
    "My wife's name is Keiko Tanaka-Smith.",
    "Our dog is called Biscuit and she is a 4-year-old beagle.",
    "The cat, Mr. Whiskers, needs his thyroid pill at 8am and 8pm.",
    "My partner, Sam, is allergic to peanuts and shellfish.",
    "Aunt Rosa lives in Guadalajara and calls every Sunday.",
    "My best friend from college is Dmitri Volkov; we met in 2009.",
    "My son's teacher is Ms. Adebayo, room 14B.",
    "José García-López is my landlord.",
    "My niece Zoë starts kindergarten in September.",
    "I'm the oldest of five kids.",
    "My father-in-law, Harold, retired from the railway in 2018.",
    "Our twins, Ava and Noah, were born at 3:12 and 3:19 am.",
    "Call my grandmother Nana, not Grandma — she prefers it.",
    "I'm 34 years old and left-handed.",
    "My mother's maiden name is O'Connell.",
    # Addresses and postcodes
    "I live at 742 Evergreen Terrace, Springfield, OR 97403.",
    "My office is at 1600 Amphitheatre Parkway, Building 43, Mountain View, CA 94043.",
    "Ship it to Flat 3B, 27 Camden Road, London NW1 9LR.",
    "Our cabin address is 18 Lakeshore Dr, Bemidji, MN 56601.",
    "My parents live at Rua Augusta 112, 1100-053 Lisboa, Portugal.",
    "The new apartment is Unit 1207, 88 Queens Quay W, Toronto ON M5J 0B8.",
    "Send the invitations to 5/14 Bondi Road, Bondi NSW 2026.",
    "Mom's address: Hauptstraße 45, 10827 Berlin.",
    "We moved to 221B Baker Street last spring — yes, really.",
    "My PO box is P.O. Box 4417, Anchorage, AK 99509.",
    "The wedding venue is at 3300 Old Mill Rd, Napa, CA 94558.",
    "Deliver to the back door at 9 Rue de Rivoli, 75004 Paris.",
    "My postcode is SW1A 1AA and the zip at the lake house is 02134.",
    "Our Tokyo hotel is at 2-7-2 Marunouchi, Chiyoda-ku, Tokyo 100-7015.",
    "I grew up on Route 9, mile marker 42, outside Taos.",
    # Phone numbers
    "My cell is (415) 555-0134.",
    "Call me at +1 415 555 0198 after 6pm.",
    "Office line: 415.555.0172 ext. 204.",
    "My UK mobile is +44 7700 900123.",
    "Dad's number is 020 7946 0958.",
    "The dentist's number is 1-800-555-0199.",
    "Reach Aunt Rosa at +52 33 1234 5678.",
    "My German landline: +49 30 901820.",
    "Text the babysitter at 555-867-5309.",
    "My work phone is +61 2 9876 5432.",
    "In India, call +91 98765 43210.",
    "The French number is 06 12 34 56 78.",
    "My Japanese SIM is 090-1234-5678.",
    "Her number is +33612345678 on WhatsApp.",
    "Emergency contact: Jordan, 07700900456.",
    # Email addresses
    "My work email is priya.raman@acme-corp.com.",
    "Personal email: jdoe1987@gmail.com",
    "Send the invoices to billing+2024@smallbiz.io.",
    "Contact the landlord at jose.garcia.lopez@outlook.es.",
    "My old address jenny_k@hotmail.co.uk still forwards.",
    "You can cc my assistant at assistant@example.org.",
    "The school's email is office@lincoln-elementary.k12.or.us.",
    "Use the alias me+shopping@fastmail.com for store sign-ups.",
    "Email link mailto:hello@example.com?subject=Hi works too.",
    "My GitHub handle is @priyaraman and my Twitter is @pri_codes.",
    # Orders, tracking numbers, product codes, serials
    "My order number is 7F3A9C21.",
    "Order #A7F3-99812 shipped yesterday.",
    "Amazon order 112-4839201-5539402 is arriving Tuesday.",
    "UPS tracking: 1Z999AA10123456784.",
    "The USPS tracking number is 9400 1000 0000 0000 0000 00.",
    "FedEx tracking 7749 1234 5678, signature required.",
    "The DHL waybill is JD014600006543210987.",
    "My Apple repair case is 101234567890.",
    "The IKEA article number for the shelf is 802.758.87.",
    "SKU BKSHLF-OAK-120 is out of stock.",
    "Model number of the fridge: RF28R7351SG/AA.",
    "The serial number on my laptop is C02XL0GYJGH5.",
    "Invoice INV-2024-00317 is due on the 30th.",
    "Return authorization RMA# 58213-B.",
    "My confirmation code for the hotel is 84HX2Q.",
    "The booking reference is QJ7P4K.",
    "E-ticket number 0012345678901 for the Lisbon flight.",
    "The part I need is a 6204-2RS bearing.",
    "Warranty claim WC-88123-ZX was approved.",
    "Lottery numbers: 04 11 23 35 42, powerball 17.",
    "Helpdesk ticket APAC00123456 is still open, they said two more days.",
    "Accounts payable reference AP100239441 was paid on Monday.",
    "Pick up the dry cleaning, ticket #4471.",
    "Car rental confirmation K7823991 with Hertz.",
    "My favourite Pokémon card is SV049/SV122.",
    # Colours
    "My favourite colour is #ff8800.",
    "Use #1E90FF (dodger blue) for the headings.",
    "The brand palette is #0A0A0A, #F5F5F5 and #E63946.",
    "Paint the nursery in 'Pale Oak', roughly #DDD5C7.",
    "Dark mode background should be #121212 with text #e0e0e0.",
    "The logo's teal is rgb(0, 128, 128), i.e. #008080.",
    "The accent colour with alpha is #7F3A9C21.",
    "In the stylesheet: --primary: #3b82f6;",
    # Identifiers, hashes and commits in prose
    "The support ticket id is 3f2504e0-4f89-11d3-9a0c-0305e82c3301.",
    "Device id 123e4567-e89b-12d3-a456-426614174000 is my old phone.",
    "The bug was fixed in commit a1b2c3d4e5f67890abcdef1234567890abcdef12.",
    "Revert 9fceb02 if the build breaks again.",
    "The release tag v2.3.1 points at commit 4e1243bd22c66e76c2ba9eddc1f91394e57f9f83.",
    "The ISO's SHA-256 is e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855.",
    "MD5 of the backup: d41d8cd98f00b204e9800998ecf8427e.",
    "Request id 0d9f7c4e2b1a4e0c9a8b7c6d5e4f3a2b shows up in the logs.",
    "My Spotify playlist id is 37i9dQZF1DXcBWIGoYBM5M.",
    "The host key fingerprint is SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s.",
    "My public key is ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl pri@laptop",
    "Our server certificate starts with -----BEGIN CERTIFICATE----- as usual.",
    "The signing key to share is:\n-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n"
    "-----END PUBLIC KEY-----",
    "My Bitcoin address for donations is bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq.",
    "The ARN of the role is arn:aws:iam::123456789012:role/ReadOnly.",
    "The pod is api-7d9f8b6c5-x2k4q in namespace team-a-prod.",
    # Dates and times
    "My birthday is 12/03/1989.",
    "Our anniversary is June 21st.",
    "The dentist appointment is on 2024-07-15 at 14:30.",
    "Mom's surgery is scheduled for Thursday, 9 May, 7:45 am.",
    "Daylight saving ends on the first Sunday of November.",
    "I started at the company on 01.09.2019.",
    "The lease ends 31 Aug 2025.",
    "Remind me on the 3rd of every month to pay rent.",
    "The meeting moved from 10:00 to 11:30 PST.",
    "Timestamp of the incident: 2024-05-02T13:45:09Z.",
    # Money and banking
    "Rent is $2,350 a month, due on the 1st.",
    "I paid €49.99 for the concert tickets.",
    "The car payment is £312.45 per month for 48 months.",
    "My salary is ¥6,200,000 a year before tax.",
    "Groceries this week came to $187.32.",
    "The kids' allowance is $5 a week.",
    "Budget for the trip: 1,500 USD max.",
    "The plumber charged 180 CHF for an hour.",
    "We spent ₹12,400 on the wedding gift.",
    "Netflix went up to $15.49/month.",
    "I bank with Chase; my checking account is the one ending in 4421.",
    "Transfer $200 to savings every payday.",
    "The mortgage is with Wells Fargo at 6.1% fixed.",
    "Don't use the Amex for groceries; the Visa gives 3% back.",
    "My routing number is printed on the checks in the top drawer.",
    "We split bills 60/40 with my partner.",
    "The savings goal is $10k by December.",
    # Travel
    "Flight UA 837 departs SFO at 11:05.",
    "I'm on BA283 to LAX, seat 34A.",
    "Our layover in Doha is 3h 20m (QR 701).",
    "My Delta SkyMiles number is 2398475612.",
    "Train ICE 578 leaves Berlin Hbf from platform 8.",
    "My passport expires in 2031, renew it a year before.",
    "The Eurostar 9014 gets into Gare du Nord at 10:47.",
    "We're planning a trip to Kyoto in April 2025.",
    # URLs and addresses without credentials
    "Bookmark https://example.com/path?x=1 for later.",
    "The recipe is at https://www.seriouseats.com/the-best-chili-recipe.",
    "Docs: https://docs.djangoproject.com/en/5.2/topics/db/queries/#lookups",
    "My portfolio lives at https://priya.dev:8443/projects?tab=all&sort=recent.",
    "The video is https://youtu.be/dQw4w9WgXcQ?t=42",
    "Local dev server: http://localhost:8000/admin/",
    "The Postgres container listens on postgres://db.internal:5432/app",
    "Maps pin: https://www.google.com/maps/@40.7128,-74.0060,15z",
    "Clone with git@github.com:acme/widgets.git",
    "The mirror is ftp://ftp.example.org/pub/releases/",
    "Our wiki page https://wiki.example.com/display/TEAM/On-call+rotation explains the schedule.",
    "Check https://status.example.com/incidents/8f3a2b1c for updates.",
    "The backups go to s3://acme-backups/2024/06/.",
    "Our Wi-Fi router's admin page is http://192.168.1.1.",
    "Our Telegram group is t.me/bookclub_sf.",
    # "password", "token", "key", "secret" used in ordinary sentences
    "I forgot my password again.",
    "I need to reset my bank password tomorrow.",
    "The bus token costs $2.",
    "The password manager we use is 1Password.",
    "Remind me to change the Wi-Fi password when the guests leave.",
    "My kids collect arcade tokens at the pizza place.",
    "As a token of appreciation, send Maria flowers.",
    "Never tell anyone your PIN, the bank said.",
    "The API key for the weather app is in the team vault, not here.",
    "Our secret family recipe uses two cups of buttermilk.",
    "Passwords must be at least 12 characters at work.",
    "The login page says 'invalid token' when I use Safari.",
    "My security question is about my first car.",
    "I keep my SSH keys on a YubiKey.",
    "I rotated the access keys last Friday as the audit required.",
    "Sam's secret is that he hates cilantro.",
    "The private key ceremony is scheduled for next quarter.",
    "Use a bearer token in the Authorization header; I'll paste it later.",
    "The garage door code is on a sticky note; I'll tell you in person.",
    "The guest Wi-Fi password is written on the fridge.",
    # Versions, devices and software
    "I'm running macOS 14.5 on an M2 MacBook Air.",
    "Upgrade Django from 4.2.13 to 5.2.19.",
    "My phone is an iPhone 15 Pro on iOS 17.5.1.",
    "Python 3.11.9 is installed via pyenv.",
    "The router firmware is v1.0.11 Build 20230425 rel.60520.",
    "Node v20.14.0 and npm 10.7.0 on the build box.",
    "We're on PostgreSQL 16.3 with pgvector 0.7.2.",
    "Kernel 6.8.0-35-generic broke my Wi-Fi.",
    "The NAS is at 10.0.0.42 on the home network.",
    "My IPv6 prefix is 2001:db8:85a3::/48.",
    "The MAC address of the printer is 3C:52:82:1A:7F:E9.",
    "Set HF_HUB_ENABLE_HF_TRANSFER=1 and install hf_transfer for faster downloads.",
    # Vehicles, memberships, ID-like numbers
    "My license plate is 7ABC123 (California).",
    "The UK car reg is AB12 CDE.",
    "Our German plate reads B-MW 1234.",
    "My library card number is 21234001234567.",
    "My employee ID is E-40917.",
    "The gym membership number is 004-88-213.",
    "My shoe size is 10.5 US / 44 EU.",
    "My blood type is O negative.",
    # Meeting notes and work
    "Meeting notes: Q3 roadmap — ship search v2 by Aug 15, hire 2 backend devs, revisit pricing.",
    "Action items: Priya to draft RFC-0042, Luis to fix the flaky test in ci/run_tests.sh.",
    "Standup: blocked on the staging DB migration 0037_add_index.",
    "Retro: deploys took 14 minutes on average; the target is under 5.",
    "1:1 with Dana — she wants to move to the platform team in Q4.",
    "The board meeting is in conference room 4B at 9:30.",
    "Decided: we use Postgres, not Mongo, for the memory store.",
    "The incident postmortem is INC-2291; root cause was a full disk on node-7.",
    "OKR 2.3: reduce p95 latency from 480ms to 250ms.",
    "Sprint 42 ends Friday; demo at 3pm.",
    "Our AWS region is us-east-1 and the account alias is acme-prod.",
    "The AWS bill was $312 in May, mostly EC2 and S3.",
    "Tickets ASIA-2024-003 and EMEA-2024-017 are assigned to me.",
    "The storage account acmebackups01 lives in resource group rg-prod-weu.",
    "In Slack, ping me in #team-infra rather than by DM.",
    "The Discord server is 'Board Game Night'; I'm @meeple42 there.",
    "My Stripe dashboard shows 42 payments this month.",
    "The GitHub repo acme/widgets has 1.2k stars.",
    "My Hugging Face username is priyar.",
    "I published version 0.3.1 of my package on PyPI.",
    "Twilio sends my 2FA codes; today's arrived late.",
    "My Mailchimp newsletter goes out on Tuesdays to 1,240 subscribers.",
    "The JWT library we use is PyJWT 2.8.",
    # Preferences
    "I prefer window seats on flights.",
    "I'm vegetarian but eat fish occasionally.",
    "Please answer in British English.",
    "I like my coffee as a flat white with oat milk.",
    "I don't like being called before 9 am.",
    "My favourite band is Radiohead, especially OK Computer.",
    "I use vim keybindings everywhere.",
    "Prefer metric units, except for height in feet.",
    "I'm lactose intolerant.",
    "I like short answers with bullet points.",
    "My preferred pronouns are they/them.",
    "Spicy food is fine, up to about a 7 out of 10.",
    "I'd rather take the train than fly for trips under 500 km.",
    "Dark roast, no sugar.",
    "I'm learning Portuguese, level A2.",
    # Long lines full of numbers
    "Between 2019 and 2023 we drove 48,213 km across 14 countries, used 3,902 litres of fuel at an "
    "average of 1.72 €/L, stayed in 211 hotels, and spent 6 nights in a tent at 2,450 m.",
    "The house is 1,850 sq ft on a 0.25 acre lot, built in 1962, renovated in 2015, with 3 bedrooms, "
    "2.5 baths, a 2-car garage, and property tax of $7,431 per year.",
    "Recipe for 12 cookies: 225 g butter, 200 g sugar, 2 eggs, 1 tsp vanilla, 280 g flour, 1/2 tsp salt; "
    "bake at 180 °C for 11–13 minutes.",
    # Everyday chat
    "Thanks, that worked!",
    "Can you remind me what we talked about yesterday?",
    "lol yes",
    "ok",
    "I'm feeling much better today.",
    "Book a table for four at Nopa on Friday at 7.",
    "The plumber said the water heater is 14 years old.",
    "I take 10 mg of lisinopril every morning.",
    "I'm 5'11\" and about 82 kg.",
    "My Wi-Fi network is called 'Casa-Raman-5G'.",
    "Kids' bedtime is 8:15 on school nights.",
    "I ran a 10K in 52:31 last Sunday.",
    "I'm reading 'Project Hail Mary' by Andy Weir.",
    "Save this: the garden needs watering every 2 days in July.",
    "The thermostat is set to 68°F during the day and 62°F at night.",
    "My chess rating is about 1650 on lichess.",
    "Quote of the day: 'The only way out is through.'",
    "Emoji test 🎉🙂 with ünïcödé, façade and naïve.",
    "Shopping list:\nbuy milk\nbuy eggs\ncall mom about Sunday",
    "Pi to ten places is 3.1415926535.",
    "Google Maps says 23 minutes to the airport.",
    "OpenAI's model was slow today, so I switched to the local one.",
    "The npm package I keep forgetting is called left-pad.",
    # More orders, tracking and reference numbers (new in issue 11)
    "Order #114-2290391-7712045 was refunded.",
    "Your order 40012345 ships Monday.",
    "Support ticket 4502 2210 has been escalated.",
    "UPS says 1Z 999 AA1 01 2345 6784 is out for delivery.",
    "USPS tracking 9261 2990 1234 5678 9012 34.",
    "FedEx 7712 3456 7890 was delivered to the front desk.",
    "Order 8175 5562 3310 4471 from the electronics store arrived.",
    "Receipt 0415-003-118274 from store #0415.",
    "The EAN on the box is 8806094945236.",
    "Case number 2024-CV-01234 is set for hearing.",
    "The EIN on the invoice is 12-3456789.",
    "The bank's routing number is 021000021.",
    "My student number is 20231045 and my locker is 3-12.",
    "Tweet 1801234567890123456 went viral.",
    "My Discord user id is 412345678901234567.",
    "The Unix timestamp 1718092800123 is in milliseconds.",
    "My phone's IMEI is 356938035643809.",
    "ISBN 978-0-306-40615-7 is the edition we need.",
    # More phone numbers
    "Call my cousin in Beijing at +86 138 0013 8000.",
    "My German mobile is +49 151 2345 6789.",
    "The front desk is (212) 555-0147.",
    "Dial +1-202-555-0183 for the embassy.",
    "From abroad, dial 0044 20 7946 0321.",
    "My Brazilian number is +55 11 91234-5678.",
    # More dates and times
    "The contract runs from 2024-06-11 to 2026-06-10.",
    "Renew the passport by 11/06/2027.",
    "The kickoff is June 11, 2024 at 5:30pm.",
    "Q3 FY2025 planning starts next week.",
    "The flight lands at 2024-06-11T09:15:00+02:00.",
    "Mom's birthday: 3 Feb 1958.",
    # More colours, UUIDs, prices, versions, hashes
    "Gold is #FFD700 and the hover state is #abc.",
    "In code, orange is 0xFF8800.",
    "Overlay: rgba(255, 136, 0, 0.5).",
    "The iOS vendor id is E621E1F8-C36C-495A-93FC-0C247A3E6E5F.",
    "Job 9b2e7f4a-1c3d-4e5f-8a9b-0c1d2e3f4a5b failed overnight.",
    "The laptop costs $1,299.99 with tax.",
    "Das Sofa kostet € 2.499,00.",
    "Her salary is USD 45,000 plus bonus.",
    "The flat sold for £1.2m.",
    "The phone is ₹1,49,999 in India.",
    "Upgrade Node to v20.14.1 and Python to 3.12.0rc1.",
    "Build 20240611.3 fixed the crash.",
    "Cherry-pick 3e8f1a9c7b2d4e6f8a0b1c2d3e4f5a6b7c8d9e0f onto the release branch.",
    "The file's SHA-1 is c3dd46c036bb3a62f301f46536559314e23acedb.",
    "Coordinates of the cabin: 40.7128, -74.0060.",
    "We processed 1,234,567,890,123 tokens last year.",
    # Passwords, keys and tokens in ordinary sentences
    "The password policy requires 14 characters and a symbol.",
    "Change your password every 90 days, IT says.",
    "The password reset link expired, request a new one.",
    "Password: see the team vault.",
    "The API key is stored in 1Password under 'Weather'.",
    "Tokens used this month: 1,240,553.",
    "The secret ingredient is smoked paprika.",
    "Bearer bonds show up in a lot of 1980s movies.",
    "Authorization: pending manager approval.",
    "My PIN code is 560034 (Bangalore).",
    "The door code changed last week; ask Sam.",
    "The key fob battery is a CR2032.",
    "Key dates: 2024-07-01 and 2024-09-15.",
    "Keyboard shortcut for screenshots: Cmd+Shift+4.",
    '{"theme": "dark", "fontSize": 14, "token_limit": 4096}',
    "Use max_tokens=2048 and temperature=0.7.",
    "Set AWS_REGION=eu-west-1 and AWS_PROFILE=personal.",
    "secret_name=prod-db-password-2024",
    "My password is too short for the new policy.",
    "The Wi-Fi password is the same as last year.",
    "I wrote the password on a sticky note, which I know is bad.",
    "The PIN is 4 digits long.",
    "pwd: /home/priya/projects",
    "The IBAN field on the form was empty, so the payment bounced.",
    "My SSN card is in the safe deposit box.",
    "The credit card ending in 4421 expires in March.",
    "Room 1204, building 3, desk 12-45-B.",
    "Serial 5CG9231XYZ, asset tag 004417.",
    # Encoded ordinary text: base64 of sentences, URL escapes, HTML entities (issue 24)
    "The payload was SGVsbG8sIHdvcmxkISBTZWUgeW91IHRvbW9ycm93Lg== (just a greeting).",
    "Decode dGhlIG1lZXRpbmcgaXMgYXQgMyBwbSBvbiBGcmlkYXk= to read Dana's note.",
    "The test string bXkgcGFzc3dvcmQgaXMgb24gdGhlIGZyaWRnZQ== decodes to a sentence about a fridge.",
    "Search link: https://www.google.com/search?q=best%20pizza%20in%20naples&hl=en",
    "The redirect was https://example.com/login?next=%2Fsettings%2Fprofile%3Ftab%3Dsecurity",
    "Maps: https://maps.google.com/?q=Caf%C3%A9%20de%20Flore%2C%20Paris",
    "mailto:help@example.com?subject=Password%20reset%20help&body=I%20forgot%20my%20password",
    "The report is at /docs/Annual%20Report%202024.pdf on the share.",
    "I'm 100% sure the meeting is at 10, with 20%-off coupons for everyone.",
    "We had coffee at the caf&eacute; on Rue de Rivoli.",
    "Tom &amp; Jerry is on at 6, then the R&amp;D review.",
    "Tickets: 5&nbsp;&euro; per person &mdash; kids go free.",
    "She wrote &quot;see you soon&quot; on the card.",
    "The sign said Fish &amp; Chips &#8212; open till 10.",
    "In the template, &lt;b&gt;bold&lt;/b&gt; is escaped twice.",
    "The tracking pixel is data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhf"
    "DwAChwGA60e6kgAAAABJRU5ErkJggg==",
    # Long ids
    "X-Request-Id: 7f3c9a2e4b1d8f6a0c5e9b3d7a1f4c8e, retry later.",
    "Trace 4bf92f3577b34da6a3ce929d0e0e4736 spans three services.",
    "Order 2024-11-25-000183742 was split into two parcels.",
    "The S3 ETag is 9b2cf535f27731c974343645a3985328.",
    "Session 550e8400-e29b-41d4-a716-446655440000 expired at noon.",
    "The YouTube video id is aqz-KE-bpKQ and the playlist PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf.",
    # Dotted numbers, versions and addresses
    "Update to 2024.11.25 tonight, then to 2025.1.0.",
    "The DNS server is 1.1.1.1 and the gateway 192.168.0.1.",
    "The OID of that extension is 1.3.6.1.4.1.311.21.20.",
    "The app is version 5.4.1234.5678 on the kiosk.",
    "Call the office on 0800.123.4567 or 030.1234.5678.",
    "Sections 4.1.1 to 4.1.11 of the lease cover repairs.",
    "The build number is 1234.5678.9012.",
    # Command lines without credentials
    "curl -X POST https://api.example.com/v1/items -H 'Content-Type: application/json' -d @item.json",
    "Use curl -u alice https://example.com/private to be prompted for the password.",
    'curl -u "$API_USER:$API_TOKEN" https://api.example.com/me',
    "wget -q https://example.com/archive.zip -O archive.zip",
    "docker run -u 1000:1000 -v $PWD:/app -w /app node:20 npm test",
    "sudo -u postgres psql -c 'select 1'",
    "mysql -u root -p mydb < dump.sql",
    "ssh -p 2222 priya@nas.local, then tar -xzf backup.tar.gz -C /tmp",
    "git commit -a -m 'fix the flaky test' && pip install -U requests",
    "http -a alice example.org/private asks for the password interactively.",
    # sk-, SECRET_KEY, PuTTY, prefixes and reversals in prose
    "We held a risk-assessment workshop; the task-force met on Tuesday.",
    "Use scikit-learn (sk-learn) for the baseline model.",
    "In settings.py: SECRET_KEY = os.environ['DJANGO_SECRET_KEY']",
    "SECRET_KEY = get_random_secret_key() runs once at startproject.",
    "Django's startproject writes a key starting with django-insecure- into settings.py.",
    "PuTTYgen's .ppk files start with a PuTTY-User-Key-File-3 line in the v3 format.",
    "ghp_ tokens are being replaced by fine-grained tokens at work.",
    "Our AWS keys start with AKIA and are 20 characters long.",
    "AIKA is the name of our Japanese tutor; racecar reads the same backwards.",
    # Sentences about passwords in French, German, Spanish, Italian, Portuguese, Dutch
    "J'ai oublié mon mot de passe, encore une fois.",
    "Le mot de passe du wifi est sur le frigo.",
    "Mon mot de passe est trop court pour le nouveau site.",
    "Mot de passe : voir le coffre-fort.",
    "Das Passwort steht auf dem Zettel am Kühlschrank.",
    "Mein Passwort ist zu kurz, sagt die Bank.",
    "Ich habe mein Kennwort vergessen.",
    "Kennwort-Richtlinie: mindestens 12 Zeichen.",
    "Olvidé mi contraseña otra vez.",
    "La contraseña del wifi está en la nevera.",
    "Mi contraseña es muy larga y difícil.",
    "La clave del éxito es la constancia.",
    "La clave es practicar todos los días.",
    "La clave del éxito es 100% esfuerzo.",
    "Ho dimenticato la password della banca.",
    "La password del wifi è sul frigo.",
    "La mia password è troppo corta.",
    "Esqueci a minha senha do banco.",
    "A senha do wifi é a mesma de sempre.",
    "Ik ben mijn wachtwoord vergeten.",
    "Het wachtwoord van de wifi is hetzelfde als vorig jaar.",
    "Mijn wachtwoord is te kort volgens de bank.",
    "Passwort: mind. 12 Zeichen, sagt die IT.",
    "Mot de passe : 12 caractères minimum.",
    "La contraseña debe tener al menos 12 caracteres.",
    # Shapes that must not run from one sentence into the next, or out of a URL's query
    "Esqueci a minha senha do banco. Order #A7F3-99812 shipped yesterday.",
    "We use Postgres, not Mongo. ssh -p 2222 priya@nas.local works from home.",
    "https://example.com/search?key=shoes2024&page=2&sort=price",
    "AKIA KEYS ARE FOR IAM USERS ONLY, SAYS THE WIKI.",
]


def _id(prefix: str, index: int) -> str:
    return f"{prefix}{index:03d}"


def test_corpora_are_large_and_have_no_duplicates():
    assert len(SECRET_SENTENCES) >= 100
    assert len(ORDINARY_SENTENCES) >= 300
    assert len(set(SECRET_SENTENCES)) == len(SECRET_SENTENCES)
    assert len(set(ORDINARY_SENTENCES)) == len(ORDINARY_SENTENCES)


@pytest.mark.parametrize("text", SECRET_SENTENCES, ids=[_id("secret", i) for i in range(len(SECRET_SENTENCES))])
def test_secret_shaped_text_is_found(text):
    kind = find_secret(text)
    assert isinstance(kind, str) and kind, f"not detected: {text!r}"


@pytest.mark.parametrize("text", ORDINARY_SENTENCES, ids=[_id("ordinary", i) for i in range(len(ORDINARY_SENTENCES))])
def test_ordinary_text_is_not_flagged(text):
    assert find_secret(text) is None, f"false positive: {text!r}"


def test_a_secret_in_the_middle_of_a_multiline_text_is_found():
    text = "\n".join(
        [
            "Notes from today's call with Dana:",
            "- she will send the signed contract by Friday",
            "- the CI deploy key is ghp_BY6rfNcAKEIOUttYpATIk27f4t3tGolUByxR, rotate it in June",
            "- lunch on Thursday at the Thai place on 5th Street",
            "- remember to buy oat milk",
        ]
    )
    assert text.splitlines()[2].startswith("- the CI deploy key")
    assert find_secret(text) == "GitHub Token"


def test_empty_and_whitespace_text_is_not_flagged():
    assert find_secret("") is None
    assert find_secret("   \n\t\n") is None


# --- normalization, redaction, JSON values ----------------------------------------------------------


def test_normalization_folds_fullwidth_and_drops_invisible_characters():
    from core.secrets import normalize

    assert normalize("ＡＫＩＡ\u200bＶＱＪＸ") == "AKIAVQJX"
    assert normalize("pass\u00adword\u2060: x") == "password: x"
    assert normalize("Zoë 🎉 café") == "Zoë 🎉 café"


def test_redact_keeps_the_text_and_removes_each_secret():
    from core.secrets import REDACTED, redact

    error = (
        "401 for token ghp_BY6rfNcAKEIOUttYpATIk27f4t3tGolUByxR; retry with Authorization: Bearer "
        "abcDEF123ghiJKL456mnoPQR; card 4787 7893 2879 2170 declined"
    )
    redacted = redact(error)
    assert redacted.count(REDACTED) == 3
    assert redacted.startswith("401 for token [REDACTED]; retry with Authorization: Bearer [REDACTED]")
    assert find_secret(redacted) is None
    assert redact("SMTP timeout after 30 s") == "SMTP timeout after 30 s"


def test_json_values_are_walked_to_any_depth_without_recursion():
    from core.errors import SecretRejected
    from core.secrets import reject_secrets, secret_in

    deep: dict = {}
    node = deep
    for _ in range(10_000):
        node["x"] = {}
        node = node["x"]
    assert secret_in(deep, field="metadata") is None
    node["leaf"] = ["ok", {"api_key": "9f8e7d6c5b4a39281706f5e4d3c2b1a0"}]
    message = secret_in(deep, field="metadata")
    assert message is not None and message.startswith("metadata.x.x.x") and "9f8e7d6c" not in message
    with pytest.raises(SecretRejected):
        reject_secrets(tags=["work", "ghp_BY6rfNcAKEIOUttYpATIk27f4t3tGolUByxR"])


def test_a_key_and_its_value_are_scanned_together_and_a_secret_key_is_not_repeated():
    from core.secrets import secret_in

    assert "metadata.db.password" in secret_in({"db": {"password": "Winter2024!"}}, field="metadata")
    assert secret_in({"password": "see the vault", "token_limit": 4096}, field="metadata") is None
    message = secret_in({"ghp_BY6rfNcAKEIOUttYpATIk27f4t3tGolUByxR": 1}, field="metadata")
    assert message == "metadata.<key> looks like a secret (GitHub Token); it was not stored."


def test_a_mnemo_api_key_is_a_secret(db):
    """A key Mnemo itself issued (core.tokens) is refused like any vendor's."""
    from core.tokens import issue_token
    from tests.factories import UserFactory

    key = issue_token(user=UserFactory(), name="agent").key
    assert find_secret(f"my mnemo key {key}") == "Mnemo API token"
    assert find_secret("the mnemo_ prefix marks our keys") is None


def test_a_service_rescan_of_what_the_contract_scanned_is_a_lookup(monkeypatch):
    """remember's service scans its fields again after the contract did (for its callers without
    a contract): recheck_secrets and secret_kind look a text found clean up, scan any other text,
    and never record one with a secret."""
    from core import secrets as s
    from core.errors import SecretRejected

    secret = "my password is hunter2-Xq9"
    clean = "Colby moved to Los Angeles last spring"
    s.reject_secrets(text=clean)
    with pytest.raises(SecretRejected):
        s.reject_secrets(text=secret)
    assert clean in s._CLEAN and secret not in s._CLEAN
    scanned: list[str] = []
    real = s.find_secret
    monkeypatch.setattr(s, "find_secret", lambda text: scanned.append(text) or real(text))
    s.recheck_secrets(text=clean)
    assert s.secret_kind(clean) is None and scanned == []
    with pytest.raises(SecretRejected):
        s.recheck_secrets(text=secret)
    assert s.secret_kind("a text no contract saw, with password: hunter2-Xq9") == "Password"
    assert len(scanned) == 2
    for i in range(s._CLEAN_ENTRIES + 10):
        s.reject_secrets(text=f"clean text number {i}")
    assert len(s._CLEAN) == s._CLEAN_ENTRIES and clean not in s._CLEAN
